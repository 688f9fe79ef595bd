import {
  assertNever,
  type ToolCallState,
  type ToolMessage,
  type ToolResult,
  findJsonIssue,
  jsonCopy,
  formatJsonIssue,
} from '@awaken/contract';

/** The content of the tool message the model reads for a finished call. */
export function toolContent(result: ToolResult | undefined, cancelReason?: string): unknown {
  if (cancelReason !== undefined) return { cancelled: true, reason: cancelReason };
  if (!result) return null;
  switch (result.status) {
    case 'success':
      return result.output;
    case 'warning':
      return { output: result.output, warning: result.message };
    case 'error':
      return result.output === undefined
        ? { error: result.message }
        : { error: result.message, output: result.output };
    case 'pending':
      return { pending: result.suspension.message };
    default:
      return assertNever(result, 'tool result');
  }
}

/**
 * The content the model reads for a finished call. A call a human approved with edited arguments
 * says so, and to what: `{ argumentsEditedByHuman: { from, to }, result }` — the model's history
 * never claims the model chose arguments it did not (an edit equal to the model's is no edit).
 */
export function committedContent(state: ToolCallState, content: unknown): unknown {
  const edited = state.editedArguments;
  if (edited === undefined || JSON.stringify(edited) === JSON.stringify(state.arguments)) return content;
  return { argumentsEditedByHuman: { from: state.arguments ?? null, to: edited }, result: content };
}

/** The content of an expired call's tool message: says so in words, never reads as a denial. */
export function expiredContent(result: ToolResult | undefined): unknown {
  return { expired: true, reason: result?.status === 'error' ? result.message : 'the approval expired' };
}

/** The tool message for a terminal call. */
export function toolMessageFor(state: ToolCallState): ToolMessage {
  if (state.status === 'expired') {
    const content = expiredContent(state.result);
    return { role: 'tool', toolCallId: state.callId, toolName: state.toolName, outcome: 'expired', content };
  }
  const outcome = state.status as ToolMessage['outcome'];
  const cancelReason =
    state.status === 'cancelled' ? (state.resume?.reason ?? cancelledReasonOf(state)) : undefined;
  return {
    role: 'tool',
    toolCallId: state.callId,
    toolName: state.toolName,
    outcome,
    content: committedContent(state, toolContent(state.result, cancelReason)),
  };
}

function cancelledReasonOf(state: ToolCallState): string {
  if (state.result?.status === 'error') return state.result.message;
  return 'cancelled';
}

/**
 * The JSON form of a tool's output, as every store and the model will see it: a Date becomes its
 * ISO string, `undefined` becomes `null`, `toJSON` is honoured. A value JSON cannot hold (BigInt,
 * a cycle, a function, NaN, nesting beyond the depth limit) yields an error message instead, so the
 * call fails like a throwing tool.
 */
export function jsonOutput(value: unknown): { value: unknown } | { error: string } {
  if (value === undefined) return { value: null };
  const issue = findJsonIssue(value);
  if (issue) return { error: `tool output is not JSON: ${formatJsonIssue(issue)}` };
  try {
    // checked above, so the direct copy gives exactly JSON.parse(JSON.stringify(value))
    const copied = jsonCopy(value);
    return { value: copied === undefined ? null : copied };
  } catch (error) {
    return { error: `tool output is not JSON: ${error instanceof Error ? error.message : String(error)}` };
  }
}
