import {
  type AgentEvent,
  type Checkpoint,
  type CheckpointEnd,
  type CheckpointEvents,
  type CheckpointWithEvents,
  type CheckpointWithEventsOutcome,
  runEventLogInputs,
  threadRunStoreInputs,
} from '@awaken/contract';
import { toStoreError } from '../connection/redis-error';
import type { ScriptContext } from '../lua/script-context';
import { CHECKPOINT_WITH_END } from '../lua/threads/checkpoint-with-end';
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
    /** The event log the events go to (its finish's arguments and default expiry). */
    private readonly log: {
      finishArgs(runId: string, fence: number, ttlMs?: number): (string | number)[];
    },
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
    const end = given?.end === undefined ? undefined : this.#endArgs(runId, events, fence, given.end);
    this.beforeWrite();
    const from = this.seqFrom();
    const rest = [typeof from === 'string' ? from : await from, ...checkpointArgs(checkpoint)];
    const reply = (
      end === undefined
        ? await CHECKPOINT_WITH_EVENTS.call(this.scripts, [append.length, ...append, ...rest])
        : await CHECKPOINT_WITH_END.call(this.scripts, [
            end.check.length,
            ...end.check,
            append.length,
            ...append,
            end.append.length,
            ...end.append,
            end.finish.length,
            ...end.finish,
            ...rest,
          ])
    ) as unknown[];
    if (reply[0] === 'committed') return { status: 'committed', run: checkpoint.run };
    return { status: 'checkpoint_failed', error: toStoreError(new Error(String(reply[1]))) };
  }

  /**
   * The end's sections (see CHECKPOINT_WITH_END): the check of the events and the last events as one
   * append, the last events' append, the finish's arguments (empty: the log stays open).
   */
  #endArgs(runId: string, events: readonly AgentEvent[], fence: number, given: CheckpointEnd) {
    const last = this.inputs.append.parse({ runId, events: given?.events, fence }).events;
    const ttlMs =
      given?.finish === undefined
        ? undefined
        : runEventLogInputs.finish.parse({ runId, ttlMs: given.finish?.ttlMs }).ttlMs;
    const { prefix } = this.scripts;
    return {
      check: appendArgs(prefix, runId, [...events, ...last], fence),
      append: last.length === 0 ? [] : appendArgs(prefix, runId, last, fence),
      finish: given?.finish === undefined ? [] : this.log.finishArgs(runId, fence, ttlMs),
    };
  }
}
