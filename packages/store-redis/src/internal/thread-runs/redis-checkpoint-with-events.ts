import {
  type Checkpoint,
  type CheckpointEvents,
  type CheckpointWithEvents,
  type CheckpointWithEventsOutcome,
  runEventLogInputs,
  threadRunStoreInputs,
} from '@awaken/contract';
import { toStoreError } from '../connection/redis-error';
import type { ScriptContext } from '../lua/script-context';
import { CHECKPOINT_WITH_EVENTS } from '../lua/threads/checkpoint-with-events';
import { appendArgs, checkpointArgs } from './script-args';

/**
 * Appends a run's events and commits a checkpoint in one script call (see CheckpointWithEvents in
 * the contract). Both inputs are validated as `append` and `commitCheckpoint` validate them, before
 * anything is sent; the call records its reply per request like every write, so a re-sent request
 * after a lost reply does not append twice.
 */
export class RedisCheckpointWithEvents implements CheckpointWithEvents {
  constructor(
    private readonly scripts: ScriptContext,
    private readonly inputs: {
      checkpoint: typeof threadRunStoreInputs.commitCheckpoint;
      append: typeof runEventLogInputs.append;
    } = { checkpoint: threadRunStoreInputs.commitCheckpoint, append: runEventLogInputs.append },
    /** Called right before the script is sent (the store's queued reads leave first). */
    private readonly beforeWrite: () => void = () => {},
    /** The first seq the checkpoint may take ('' = the slot's own counter; see `thread-prelude.ts`). */
    private readonly seqFrom: () => string | Promise<string> = () => '',
  ) {}

  async commitCheckpointWithEvents(
    input: Checkpoint,
    given: CheckpointEvents,
  ): Promise<CheckpointWithEventsOutcome> {
    const checkpoint = this.inputs.checkpoint.parse(input);
    const {
      runId,
      events,
      fence = 0,
    } = this.inputs.append.parse({ runId: given?.runId, events: given?.events, fence: given?.fence });
    const append = appendArgs(this.scripts.prefix, runId, events, fence);
    this.beforeWrite();
    const from = this.seqFrom();
    const reply = (await CHECKPOINT_WITH_EVENTS.call(this.scripts, [
      append.length,
      ...append,
      typeof from === 'string' ? from : await from,
      ...checkpointArgs(checkpoint),
    ])) as unknown[];
    if (reply[0] === 'committed') return { status: 'committed', run: checkpoint.run };
    return { status: 'checkpoint_failed', error: toStoreError(new Error(String(reply[1]))) };
  }
}
