// Waits for a run to reach a status (what `SubmittedRun.settled()` and `done()` resolve with); it
// ends nothing and settles no dispatch.
import { AwakenError, type RunRecord } from '@awaken/contract';
import type { ServiceStores } from '../../types';
import { followRunEvents } from './follow-run-events';

/**
 * Resolves with the stored run once an activation of it finished after `afterSeq` and left it in
 * one of `statuses` (`waiting` or `done`), following its event log, so it works whichever process
 * executes the run. A run already done resolves at once.
 */
export async function awaitRunStatus(
  stores: ServiceStores,
  runId: string,
  options: { afterSeq?: number; signal?: AbortSignal; statuses: ReadonlyArray<'waiting' | 'done'> },
): Promise<RunRecord> {
  let seq = options.afterSeq ?? 0;
  while (true) {
    options.signal?.throwIfAborted();
    const record = await stores.threadRuns.getRun(runId);
    if (!record) throw new AwakenError('not_found', `run ${runId} not found`);
    if (record.status === 'done') return record;
    let finished = false;
    const follow = { afterSeq: seq, ...(options.signal ? { signal: options.signal } : {}) };
    for await (const event of followRunEvents(stores.eventLog, runId, follow)) {
      seq = event.seq;
      if (event.type === 'run_finish') finished = true;
    }
    options.signal?.throwIfAborted();
    if (!finished) continue;
    const settled = await stores.threadRuns.getRun(runId);
    if (!settled) throw new AwakenError('not_found', `run ${runId} not found`);
    if (settled.status === 'done') return settled;
    if (settled.status === 'waiting' && options.statuses.includes('waiting')) return settled;
  }
}
