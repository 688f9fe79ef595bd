import { type ToolCall, findJsonIssue, formatJsonIssue, toolFailure } from '@awaken/contract';
import type { RunSession } from '../session/run-session';
import { settleCall } from '../tools/call-outcome';
import { moveCall } from '../tools/move-call';

/**
 * Gives every tool call of a turn a storable id, name and arguments (a model may send an empty id or
 * name; a plugin may set arguments JSON cannot hold). Returns the calls to store and, by id, why each
 * malformed one fails — such a call is never executed, it gets a failed result the model reads.
 */
export function sanitizeToolCalls(
  calls: readonly ToolCall[],
  createId: () => string,
): { calls: ToolCall[]; malformed: Map<string, string> } {
  const malformed = new Map<string, string>();
  const sanitized = calls.map((call) => {
    const problems: string[] = [];
    let { id, name, arguments: args } = call;
    if (typeof id !== 'string' || id.length === 0) {
      id = `call_${createId()}`;
      problems.push('the model sent this tool call without an id');
    }
    if (typeof name !== 'string' || name.length === 0) {
      name = 'unnamed_tool';
      problems.push('the model sent this tool call without a tool name');
    }
    const issue = typeof args === 'string' ? undefined : findJsonIssue(args);
    if (issue) {
      args = undefined;
      problems.push(`its arguments cannot be stored: ${formatJsonIssue(issue)}`);
    }
    if (problems.length > 0) malformed.set(id, problems.join('; '));
    return { id, name, ...(args === undefined ? {} : { arguments: args }) };
  });
  return { calls: sanitized, malformed };
}

/**
 * Fails the malformed calls of the batch before the assistant turn is checkpointed, so the stored
 * state already says `failed` and no activation ever executes them.
 */
export function failMalformedCalls(session: RunSession, malformed: ReadonlyMap<string, string>): void {
  for (const [id, message] of malformed) {
    const state = session.batch.byId.get(id);
    if (state?.status !== 'new') continue;
    moveCall(session, state, 'running');
    state.result = toolFailure(`invalid tool call: ${message}`);
    moveCall(session, state, 'failed');
  }
}

/** Announces the malformed calls' results (events, AfterToolExecute) once the turn is stored. */
export async function reportMalformedCalls(
  session: RunSession,
  malformed: ReadonlyMap<string, string>,
): Promise<void> {
  for (const id of malformed.keys()) {
    const state = session.batch.byId.get(id);
    if (state?.status === 'failed' && state.result) await settleCall(session, state, state.result);
  }
}
