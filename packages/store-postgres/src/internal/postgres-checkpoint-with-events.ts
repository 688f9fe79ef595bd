import {
  AwakenError,
  type Checkpoint,
  type CheckpointEnd,
  type CheckpointEvents,
  type CheckpointWithEvents,
  type CheckpointWithEventsOutcome,
  runEventLogInputs,
  type threadRunStoreInputs,
} from '@awaken/contract';
import type { PostgresRunEventLog } from '../postgres-run-event-log';
import type { PgDb } from './db';
import { runWriteCall, runWriteEndCall, runWriteReply } from './run-write-functions';

/**
 * Appends a run's events and commits a checkpoint in one call of `tr_write` (one round trip, one
 * transaction; see CheckpointWithEvents in the contract). Both inputs are validated as `append` and
 * `commitCheckpoint` validate them, before anything is sent; the call runs in the event log's lane
 * for the run (after the appends made before it) and records its reply, so a re-sent request after
 * a lost reply does not append twice.
 */
export class PostgresCheckpointWithEvents implements CheckpointWithEvents {
  constructor(
    private readonly db: PgDb,
    private readonly log: PostgresRunEventLog,
    private readonly inputs: {
      checkpoint: typeof threadRunStoreInputs.commitCheckpoint;
      append: typeof runEventLogInputs.append;
    },
  ) {}

  async commitCheckpointWithEvents(
    input: Checkpoint,
    given: CheckpointEvents,
  ): Promise<CheckpointWithEventsOutcome> {
    const checkpoint = this.inputs.checkpoint.parse(input);
    const parsed = this.inputs.append.parse({
      runId: given?.runId,
      events: given?.events,
      fence: given?.fence,
    });
    const end = given?.end === undefined ? undefined : this.#end(parsed.runId, parsed.fence, given.end);
    const events = {
      runId: parsed.runId,
      events: end === undefined ? parsed.events : [...parsed.events, ...end.events],
      fence: parsed.fence ?? 0,
    };
    const channel = this.db.notifier.channel('events');
    return this.log.inLane(events.runId, async () => {
      const [reply] = await this.db.callFunctions([
        end === undefined
          ? runWriteCall(channel, events, checkpoint)
          : runWriteEndCall(channel, events, end.events.length, checkpoint, end.finish),
      ]);
      if (AwakenError.isInstance(reply)) throw reply;
      const outcome = runWriteReply(String(reply), events, checkpoint);
      if (outcome.status === 'append_refused') throw outcome.error;
      if (outcome.status === 'checkpoint_refused')
        return { status: 'checkpoint_failed', error: outcome.error };
      return { status: 'committed', run: checkpoint.run };
    });
  }

  /** The end's events, parsed as an append's, and its finish's expiry and sweep. */
  #end(runId: string, fence: number | undefined, end: CheckpointEnd) {
    const { events } = this.inputs.append.parse({ runId, events: end?.events, fence });
    if (end?.finish === undefined) return { events, finish: undefined };
    const { ttlMs } = runEventLogInputs.finish.parse({ runId, ttlMs: end.finish?.ttlMs });
    return { events, finish: this.log.finishPlan(ttlMs) };
  }
}
