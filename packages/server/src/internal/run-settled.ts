import { AwakenError, type RunRecord } from '@awaken/contract';
import type { ServiceStores } from '../types';
import { followRunEvents } from './follow-run-events';

/**
 * Resolves with the stored run once an activation of it finished (it waits or is done), following
 * its event log from `afterSeq`, so it works whichever process executes the run.
 */
export async function runSettled(
  stores: ServiceStores,
  runId: string,
  options: { afterSeq?: number; signal?: AbortSignal } = {},
): Promise<RunRecord> {
  let seq = options.afterSeq ?? 0;
  while (true) {
    options.signal?.throwIfAborted();
    const record = await stores.threadRuns.getRun(runId);
    if (!record) throw new AwakenError('not_found', `run ${runId} not found`);
    if (record.status === 'done') return record;
    let finished = false;
    for await (const event of followRunEvents(stores.eventLog, runId, { ...options, afterSeq: seq })) {
      seq = event.seq;
      if (event.type === 'run_finish') finished = true;
    }
    options.signal?.throwIfAborted();
    if (finished) {
      const settled = await stores.threadRuns.getRun(runId);
      if (!settled) throw new AwakenError('not_found', `run ${runId} not found`);
      if (settled.status === 'waiting' || settled.status === 'done') return settled;
    }
  }
}
