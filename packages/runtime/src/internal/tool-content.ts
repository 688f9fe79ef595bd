import type { ToolCallState, ToolMessage, ToolResult } from '@awaken/contract';

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
    default: {
      const exhaustive: never = result;
      return exhaustive;
    }
  }
}

/** The tool message for a terminal call. */
export function toolMessageFor(state: ToolCallState): ToolMessage {
  const outcome = state.status as ToolMessage['outcome'];
  const cancelReason =
    state.status === 'cancelled' ? (state.resume?.reason ?? cancelledReasonOf(state)) : undefined;
  return {
    role: 'tool',
    toolCallId: state.callId,
    toolName: state.toolName,
    outcome,
    content: toolContent(state.result, cancelReason),
  };
}

function cancelledReasonOf(state: ToolCallState): string {
  if (state.result?.status === 'error') return state.result.message;
  return 'cancelled';
}
