import { AwakenError, type RunRecord } from '@awaken/contract';
import type { RunOwnership } from './run-ownership';
import type { RuntimeServices } from '../session/run-session';

/**
 * Completes the event log of a run the store holds as done, when the activation that finished it
 * stopped before its `run_finish` was appended or the log was finished (a store failure, a crash).
 * Runs under the run's lease, so two repairers never append twice; a run held by someone else is
 * left to its holder.
 */
export async function repairFinishedLog(
  services: RuntimeServices,
  record: RunRecord,
  ownership: RunOwnership,
): Promise<void> {
  const log = services.eventLog;
  if (!log || (await log.isFinished(record.runId))) return;
  let fence: number;
  try {
    fence = (await ownership.acquire()).fence;
  } catch (error) {
    if (AwakenError.hasCode(error, 'run_busy')) return;
    throw error;
  }
  const lastSeq = await log.raiseFence(record.runId, fence);
  const [last] = lastSeq > 0 ? await log.read(record.runId, { afterSeq: lastSeq - 1 }) : [];
  if (last?.type !== 'run_finish' || last.status !== 'done') {
    await log.append(
      record.runId,
      [
        {
          type: 'run_finish',
          runId: record.runId,
          seq: lastSeq + 1,
          at: services.now(),
          status: 'done',
          termination: record.termination ?? { type: 'natural_end' },
          ...(record.response === undefined ? {} : { response: record.response }),
          usage: record.usage,
        },
      ],
      { fence },
    );
  }
  await log.finish(record.runId, { fence });
}
