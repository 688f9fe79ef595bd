import { assertNever, type ToolCallState, type ToolMessage, type ToolResult } from '@awaken/contract';

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
