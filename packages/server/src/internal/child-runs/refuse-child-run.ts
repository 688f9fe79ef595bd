import { AwakenError, type RunRecord } from '@awaken/contract';

/** How far up a chain of sub-agents the refusal looks for the top-level run. */
const MAX_DEPTH = 16;

/**
 * Refuses a command addressed to a sub-agent's child run (`parentRunId`): its questions are tickets
 * of its top-level run, answered there — judged once against the askers of the whole run (four-eyes
 * included) and forwarded to the child. Answered (or given input) directly, the child would go on
 * behind its parent's back, past the parent's judge, leaving the parent waiting on a stale question.
 * A `conflict` (409) naming the top-level run (`details.topLevelRunId`).
 */
export async function refuseChildRun(
  runs: { getRun(runId: string): Promise<RunRecord | null> },
  record: RunRecord,
  what: string,
): Promise<void> {
  if (record.parentRunId === undefined) return;
  let top = record.parentRunId;
  for (let depth = 0; depth < MAX_DEPTH; depth += 1) {
    const parent = await runs.getRun(top);
    if (parent?.parentRunId === undefined) break;
    top = parent.parentRunId;
  }
  throw new AwakenError(
    'conflict',
    `run ${record.runId} is a sub-agent's child run: ${what} through its top-level run ${top}`,
    { details: { runId: record.runId, parentRunId: record.parentRunId, topLevelRunId: top } },
  );
}
