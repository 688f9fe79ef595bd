import {
  type AgentEvent,
  type Checkpoint,
  type NewMessage,
  canTransitionRunStatus,
  runStatusSchema,
  threadTitleOf,
} from '@awaken/contract';
import { runKeys } from '../keys/run-keys';

const RUN_STATUSES = runStatusSchema.options;

/**
 * The arguments of the append script (after the prefix): the fence alone when there are no events
 * (the fence is still checked: a fenced-out writer learns it at once), else the batch.
 */
export function appendArgs(
  prefix: string,
  runId: string,
  events: readonly AgentEvent[],
  fence: number,
): (string | number)[] {
  const keys = runKeys(prefix, runId);
  const fenced = [runId, keys.events, keys.eventMeta, fence];
  if (events.length === 0) return fenced;
  const first = events[0]?.seq ?? 0;
  // Checked here, reported by the script after the fence (a fenced-out writer hears stale_claim).
  const consistent = events.every((event, index) => event.runId === runId && event.seq === first + index);
  return [...fenced, first, consistent ? '1' : '0', ...events.map((event) => JSON.stringify(event))];
}

/** The title argument of a batch of messages: its title as JSON, or '' when it gives none. */
export function titleArg(messages: readonly NewMessage[]): string {
  const title = threadTitleOf(messages);
  return title === undefined ? '' : JSON.stringify(title);
}

/** The checkpoint script's arguments (after the prefix) for a parsed checkpoint. */
export function checkpointArgs(checkpoint: Checkpoint): (string | number)[] {
  const { run } = checkpoint;
  return [
    checkpoint.threadId,
    JSON.stringify(checkpoint.threadId),
    checkpoint.expectedMessageCount,
    run.runId,
    JSON.stringify(run),
    run.version,
    run.status,
    RUN_STATUSES.filter((from) => canTransitionRunStatus(from, run.status)).join(' '),
    checkpoint.threadState === undefined ? '' : JSON.stringify(checkpoint.threadState),
    checkpoint.fence ?? 0,
    titleArg(checkpoint.messages),
    ...checkpoint.messages.map((message) => JSON.stringify(message)),
  ];
}
