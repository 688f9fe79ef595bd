import {
  type AgentEventOf,
  assertNever,
  indeterminateQuestionOf,
  isApprovalTicket,
  questionKindOf,
} from '@awaken/contract';
import { AWAKEN_QUESTION_PART, type UiMessageChunk } from '../wire/ui-message-chunk';
import type { EncoderState, ToolPart } from './encoder-state';
import { nestedDescriptor, subagentWaiting } from './subagent-chunks';

/** How tool parts are typed on the client: `tool-<name>` (static) or `dynamic-tool`. */
export interface ToolChunkOptions {
  dynamic: (toolName: string) => boolean;
}

function flag(options: ToolChunkOptions, toolName: string): { dynamic?: true } {
  return options.dynamic(toolName) ? { dynamic: true } : {};
}

type ToolCall = { toolCallId: string; toolName: string; input?: unknown };

/** A new part for the call, in the step that is open. */
function newPart(state: EncoderState, call: ToolCall, phase: ToolPart['phase']): ToolPart {
  const part: ToolPart = { toolName: call.toolName, step: state.openStep?.step, phase };
  state.tools.set(call.toolCallId, part);
  return part;
}

function inputAvailable(options: ToolChunkOptions, call: ToolCall): UiMessageChunk {
  return {
    type: 'tool-input-available',
    toolCallId: call.toolCallId,
    toolName: call.toolName,
    input: call.input ?? null,
    ...flag(options, call.toolName),
  };
}

/**
 * Makes sure the client has a part for the call before a chunk that looks it up (an approval request
 * or an output for a call this message never showed would fail with "No tool invocation found").
 */
function ensurePart(
  state: EncoderState,
  options: ToolChunkOptions,
  call: ToolCall,
  out: UiMessageChunk[],
): ToolPart {
  const known = state.tools.get(call.toolCallId);
  if (known) return known;
  out.push(inputAvailable(options, call));
  return newPart(state, call, 'input');
}

export function toolStart(
  state: EncoderState,
  options: ToolChunkOptions,
  event: AgentEventOf<'tool_call_start'>,
  out: UiMessageChunk[],
): void {
  newPart(state, event, 'streaming');
  out.push({
    type: 'tool-input-start',
    toolCallId: event.toolCallId,
    toolName: event.toolName,
    ...flag(options, event.toolName),
  });
}

export function toolArgsDelta(
  state: EncoderState,
  event: AgentEventOf<'tool_call_args_delta'>,
  out: UiMessageChunk[],
): void {
  const part = state.tools.get(event.toolCallId);
  // a delta for a call the client holds no streaming part of would be fatal on the client
  if (part?.phase !== 'streaming') return;
  out.push({ type: 'tool-input-delta', toolCallId: event.toolCallId, inputTextDelta: event.delta });
}

export function toolReady(
  state: EncoderState,
  options: ToolChunkOptions,
  event: AgentEventOf<'tool_call_ready'>,
  out: UiMessageChunk[],
): void {
  const part = state.tools.get(event.toolCallId);
  if (part) part.phase = 'input';
  else newPart(state, event, 'input');
  const { toolCallId, toolName, arguments: input } = event;
  out.push(inputAvailable(options, { toolCallId, toolName, input }));
}

/** The part that says what an `indeterminate` call waits for: its ticket, answer shape and outcomes. */
function indeterminateQuestion(event: AgentEventOf<'tool_call_suspended'>): UiMessageChunk {
  const { suspension } = event.ticket;
  return {
    type: AWAKEN_QUESTION_PART,
    id: suspension.id,
    data: {
      kind: 'indeterminate',
      ticketId: suspension.id,
      toolCallId: event.toolCallId,
      toolName: event.toolName,
      message: suspension.message,
      ...indeterminateQuestionOf(suspension),
    },
  };
}

/**
 * An approval asks (after the part exists); a client tool or a value request leaves it
 * input-available; so does an indeterminate call, with a `data-awaken-question` part saying what it
 * waits for (`addToolOutput` answers it). A sub-agent's question (a nested ticket) also gets the
 * call's preliminary output naming the inner call, and the approval's descriptor names it too.
 */
export function toolSuspended(
  state: EncoderState,
  options: ToolChunkOptions,
  event: AgentEventOf<'tool_call_suspended'>,
  out: UiMessageChunk[],
): void {
  const { ticket } = event;
  const part = ensurePart(
    state,
    options,
    { toolCallId: event.toolCallId, toolName: event.toolName, input: ticket.pending.arguments },
    out,
  );
  part.ticket = ticket;
  part.declined = false;
  state.waiting.set(ticket.suspension.id, event.toolCallId);
  const kind = questionKindOf(ticket);
  // a sub-agent's question: the call's progress says what the child asks, before the approval
  subagentWaiting(options, event.toolCallId, part, ticket, out);
  if (kind !== 'approval') {
    part.phase = 'input';
    if (kind === 'indeterminate') out.push(indeterminateQuestion(event));
    return;
  }
  part.phase = 'asked';
  const descriptor = nestedDescriptor(ticket);
  out.push({
    type: 'tool-approval-request',
    approvalId: ticket.suspension.id,
    toolCallId: event.toolCallId,
    ...(descriptor ? { approvalDescriptor: descriptor } : {}),
  });
}

export function toolResumed(state: EncoderState, event: AgentEventOf<'tool_call_resumed'>): void {
  const part = state.tools.get(event.toolCallId);
  if (part) part.declined = event.decision.action === 'cancel';
  if (event.decision.ticketId !== undefined) state.waiting.delete(event.decision.ticketId);
}

function cancelledChunk(event: AgentEventOf<'tool_call_done'>, part: ToolPart): UiMessageChunk {
  const reason = event.result?.status === 'error' ? event.result.message : 'the call was cancelled';
  // a declined approval is `output-denied`; a client tool's error or any other cancel is an error
  if (part.declined && part.ticket !== undefined && isApprovalTicket(part.ticket))
    return { type: 'tool-output-denied', toolCallId: event.toolCallId };
  return { type: 'tool-output-error', toolCallId: event.toolCallId, errorText: reason };
}

export function toolDone(
  state: EncoderState,
  options: ToolChunkOptions,
  event: AgentEventOf<'tool_call_done'>,
  out: UiMessageChunk[],
): void {
  const part = ensurePart(state, options, event, out);
  part.phase = 'done';
  if (part.ticket) state.waiting.delete(part.ticket.suspension.id);
  const dynamic = flag(options, event.toolName);
  const result = event.result;
  switch (event.status) {
    case 'succeeded': {
      const output = result && 'output' in result ? result.output : event.content;
      out.push({
        type: 'tool-output-available',
        toolCallId: event.toolCallId,
        output: output ?? null,
        ...dynamic,
      });
      return;
    }
    case 'failed': {
      const errorText = result?.status === 'error' ? result.message : JSON.stringify(event.content ?? null);
      out.push({ type: 'tool-output-error', toolCallId: event.toolCallId, errorText, ...dynamic });
      return;
    }
    case 'cancelled':
      out.push(cancelledChunk(event, part));
      return;
    case 'expired': {
      // not a denial: nobody answered in time; the client shows the runtime's words
      const errorText = result?.status === 'error' ? result.message : 'the approval for this call expired';
      out.push({ type: 'tool-output-error', toolCallId: event.toolCallId, errorText, ...dynamic });
      return;
    }
    default:
      assertNever(event.status, 'tool call status');
  }
}

/** Closes the streaming parts of a step that never became calls (a cut stream, a plugin dropping them). */
export function closeStreamingParts(state: EncoderState, step: number, out: UiMessageChunk[]): void {
  for (const [toolCallId, part] of state.tools) {
    if (part.phase !== 'streaming' || part.step !== step) continue;
    part.phase = 'done';
    out.push({ type: 'tool-output-error', toolCallId, errorText: 'the call was not made' });
  }
}
