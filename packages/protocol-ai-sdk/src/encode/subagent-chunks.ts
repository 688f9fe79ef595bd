import type { AgentEventOf, SuspendTicket } from '@awaken/contract';
import type { NestedApprovalDescriptor, SubagentProgress, UiMessageChunk } from '../wire/ui-message-chunk';
import type { EncoderState, ToolPart } from './encoder-state';

/** How tool parts are typed (`ToolChunkOptions` of `tool-chunks`, which imports this file). */
type ToolChunkOptions = { dynamic: (toolName: string) => boolean };

/** The inner call a nested ticket asks about, as the approval's descriptor shows it. */
export function nestedDescriptor(ticket: SuspendTicket): NestedApprovalDescriptor | undefined {
  const nested = ticket.suspension.nested;
  if (!nested) return undefined;
  return {
    toolName: nested.toolName,
    input: nested.arguments ?? null,
    agentPath: [...nested.agentPath],
    message: ticket.suspension.message,
  };
}

function progressChunk(
  options: ToolChunkOptions,
  toolCallId: string,
  part: ToolPart,
  progress: SubagentProgress['subagent'],
): UiMessageChunk {
  const output: SubagentProgress = { subagent: progress };
  return {
    type: 'tool-output-available',
    toolCallId,
    output,
    preliminary: true,
    ...(options.dynamic(part.toolName) ? { dynamic: true } : {}),
  };
}

/**
 * A call starts (or continues) its child run: the call's part gets a preliminary output saying the
 * sub-agent runs. Sent only for a part the client holds (the call's input came first).
 */
export function subagentStarted(
  state: EncoderState,
  options: ToolChunkOptions,
  event: AgentEventOf<'subagent_start'>,
  out: UiMessageChunk[],
): void {
  const part = state.tools.get(event.toolCallId);
  if (!part) return;
  part.subagent = {
    runId: event.childRunId,
    threadId: event.childThreadId,
    agentId: event.agentId,
    agentPath: [...event.agentPath],
  };
  out.push(progressChunk(options, event.toolCallId, part, { ...part.subagent, status: 'running' }));
}

/**
 * The call waits on its child's question (a nested ticket): a preliminary output saying what the
 * sub-agent asks, sent before the call's approval request (or left as the part's progress when the
 * question is not an approval).
 */
export function subagentWaiting(
  options: ToolChunkOptions,
  toolCallId: string,
  part: ToolPart,
  ticket: SuspendTicket,
  out: UiMessageChunk[],
): void {
  const nested = ticket.suspension.nested;
  const descriptor = nestedDescriptor(ticket);
  if (!nested || !descriptor) return;
  const child = part.subagent ?? {
    runId: nested.runId,
    threadId: '',
    agentId: nested.agentPath.at(-1) ?? '',
    agentPath: [...nested.agentPath],
  };
  out.push(
    progressChunk(options, toolCallId, part, {
      ...child,
      status: 'waiting',
      question: { approvalId: ticket.suspension.id, ...descriptor },
    }),
  );
}
