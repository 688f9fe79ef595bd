import {
  AwakenError,
  type Checkpoint,
  type CheckpointWithEvents,
  type RunRecord,
  runEventLogInputs,
  type threadRunStoreInputs,
} from '@awaken/contract';
import type { MemoryLogWrites } from './memory-log-writes';

/**
 * The joint checkpoint write in process memory (see CheckpointWithEvents and CheckpointEnd in the
 * contract): after the inputs are parsed, every check and write runs with no await in between — the
 * events and the run's last events checked as one append, the events appended, the checkpoint
 * committed, then (only when it committed) the last events appended and the log finished — so no
 * other call sees a part of it, as with one transaction elsewhere.
 */
export function memoryCheckpointWithEvents(
  log: MemoryLogWrites,
  commitNow: (checkpoint: Checkpoint) => RunRecord,
  inputs: {
    checkpoint: typeof threadRunStoreInputs.commitCheckpoint;
    append: typeof runEventLogInputs.append;
  },
): CheckpointWithEvents {
  return {
    async commitCheckpointWithEvents(input, given) {
      const checkpoint = inputs.checkpoint.parse(input);
      const { runId, events, fence } = inputs.append.parse({
        runId: given?.runId,
        events: given?.events,
        fence: given?.fence,
      });
      const end =
        given?.end === undefined
          ? undefined
          : {
              events: inputs.append.parse({ runId, events: given.end?.events, fence }).events,
              finish:
                given.end.finish === undefined
                  ? undefined
                  : runEventLogInputs.finish.parse({ runId, ttlMs: given.end.finish?.ttlMs }),
            };
      if (end !== undefined) log.check(runId, [...events, ...end.events], fence);
      log.append(runId, events, fence);
      let run: RunRecord;
      try {
        run = commitNow(checkpoint);
      } catch (error) {
        if (!AwakenError.isInstance(error)) throw error;
        return { status: 'checkpoint_failed', error };
      }
      if (end !== undefined) {
        log.append(runId, end.events, fence);
        if (end.finish !== undefined) log.finish(runId, fence, end.finish.ttlMs);
      }
      return { status: 'committed', run };
    },
  };
}
