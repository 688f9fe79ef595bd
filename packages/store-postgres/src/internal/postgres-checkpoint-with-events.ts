import {
  AwakenError,
  type Checkpoint,
  type CheckpointEvents,
  type CheckpointWithEvents,
  type CheckpointWithEventsOutcome,
  type runEventLogInputs,
  type threadRunStoreInputs,
} from '@awaken/contract';
import type { PostgresRunEventLog } from '../postgres-run-event-log';
import type { PgDb } from './db';
import { runWriteCall, runWriteReply } from './run-write-functions';

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
    const events = { runId: parsed.runId, events: parsed.events, fence: parsed.fence ?? 0 };
    return this.log.inLane(events.runId, async () => {
      const [reply] = await this.db.callFunctions([
        runWriteCall(this.db.notifier.channel('events'), events, checkpoint),
      ]);
      if (AwakenError.isInstance(reply)) throw reply;
      const outcome = runWriteReply(String(reply), events, checkpoint);
      if (outcome.status === 'append_refused') throw outcome.error;
      if (outcome.status === 'checkpoint_refused')
        return { status: 'checkpoint_failed', error: outcome.error };
      return { status: 'committed', run: checkpoint.run };
    });
  }
}
