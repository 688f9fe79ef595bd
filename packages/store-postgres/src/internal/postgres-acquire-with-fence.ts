import {
  type AcquireWithFence,
  type AcquiredWithFence,
  AwakenError,
  type RunRecord,
  type threadRunStoreInputs,
} from '@awaken/contract';
import type { PostgresRunEventLog } from '../postgres-run-event-log';
import type { PgDb } from './db';
import { notFound } from './errors';
import { key } from './keys';
import { checkFree, leaseOf } from './run-lease';
import { appendRefusal } from './run-write-functions';

/**
 * Takes a run's lease, raises its event log's fence to the new one and reads the run record in one
 * call of `tr_lease_fence` (migration 11): one round trip, one transaction (see AcquireWithFence in
 * the contract). The call runs in the event log's lane for the run, after the log writes made before
 * it, and records its reply, so a re-sent request after a lost reply takes no second lease.
 */
export class PostgresAcquireWithFence implements AcquireWithFence {
  constructor(
    private readonly db: PgDb,
    private readonly log: PostgresRunEventLog,
    private readonly inputs: { acquireRun: typeof threadRunStoreInputs.acquireRun },
  ) {}

  async acquireRunWithFence(
    input: string,
    request: { owner: string; leaseMs: number },
  ): Promise<AcquiredWithFence> {
    const { runId, owner, leaseMs } = this.inputs.acquireRun.parse({
      runId: input,
      owner: request?.owner,
      leaseMs: request?.leaseMs,
    });
    const reply = await this.log.inLane(runId, async () => {
      const [answer] = await this.db.callFunctions([
        { fn: 'tr_lease_fence', args: [key(runId), owner, leaseMs] },
      ]);
      if (AwakenError.isInstance(answer)) throw answer;
      return String(answer);
    });
    if (reply.startsWith('!')) {
      const refusal = JSON.parse(reply.slice(1)) as Record<string, unknown>;
      if (refusal.code === 'no_run') throw notFound('run', runId);
      if (refusal.code === 'busy') {
        const holder = { fence: 0, owner: String(refusal.owner), leaseUntil: Number(refusal.leaseUntil) };
        checkFree(runId, holder, Number(refusal.at));
      }
      if (refusal.code === 'stale_fence') {
        throw appendRefusal(refusal, { runId, events: [], fence: Number(refusal.given) });
      }
      throw new AwakenError('store_failure', `postgres: an unexpected reply ${reply.slice(0, 200)}`);
    }
    const first = reply.indexOf('\n');
    const second = reply.indexOf('\n', first + 1);
    const { fence, leaseUntil } = JSON.parse(reply.slice(0, first)) as { fence: number; leaseUntil: number };
    return {
      lease: leaseOf(runId, owner, fence, leaseUntil),
      lastSeq: Number(reply.slice(first + 1, second)),
      run: JSON.parse(reply.slice(second + 1)) as RunRecord,
    };
  }
}
