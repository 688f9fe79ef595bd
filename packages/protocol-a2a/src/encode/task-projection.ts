import type { AgentEvent, SuspendTicket } from '@awaken/contract';
import type { A2aArtifact, A2aStreamResponse, A2aTaskStatus } from '../wire/a2a-types';
import { ANSWER_ARTIFACT_ID, answerArtifact, toolResultArtifact } from './artifacts';
import { inputRequiredMessage } from './input-required-message';
import type { OpenTicket } from '../answers/open-tickets';
import { terminalStateOf } from './task-state';

function openTicketOf(ticket: SuspendTicket, toolName: string): OpenTicket {
  const { suspension, pending, resumeMode, expiresAt } = ticket;
  return {
    ticketId: suspension.id,
    toolCallId: pending.id,
    toolName,
    action: suspension.action,
    message: suspension.message,
    arguments: pending.arguments,
    parameters: suspension.parameters,
    ...(suspension.responseSchema ? { responseSchema: suspension.responseSchema } : {}),
    resumeMode,
    ...(expiresAt === undefined ? {} : { expiresAt }),
    ...(suspension.requiresDistinctApprover ? { requiresDistinctApprover: true } : {}),
    // a sub-agent's question: the inner call and the agent path, as the stored ticket has them
    ...(suspension.nested ? { nested: suspension.nested } : {}),
  };
}

const iso = (at: number) => new Date(at).toISOString();

/**
 * A run's event log folded into its A2A task: the status, the text answer so far, one artifact per
 * finished tool call and the tickets still open. {@link apply} returns the stream events an event
 * adds, so the same fold serves a live stream and the snapshot a (re)subscription starts with — a
 * client that takes the snapshot, then the events after it, loses and repeats nothing.
 */
export class TaskProjection {
  private text = '';
  private readonly tools = new Map<string, A2aArtifact>();
  private readonly open = new Map<string, OpenTicket>();
  status: A2aTaskStatus = { state: 'TASK_STATE_SUBMITTED' };
  /** The seq of the last event applied. */
  seq = 0;

  constructor(readonly ids: { taskId: string; contextId: string }) {}

  /** The artifacts so far: the answer (when there is text), then the tool results in finishing order. */
  artifacts(): A2aArtifact[] {
    return [...(this.text ? [answerArtifact(this.text)] : []), ...this.tools.values()];
  }

  /** The tickets the run waits on, as far as the events applied tell. */
  openTickets(): OpenTicket[] {
    return [...this.open.values()];
  }

  /** Folds one event in; returns the stream events it produces (none for most). */
  apply(event: AgentEvent): A2aStreamResponse[] {
    this.seq = event.seq;
    switch (event.type) {
      case 'run_start':
        return [this.setStatus({ state: 'TASK_STATE_WORKING', timestamp: iso(event.at) })];
      case 'text_delta': {
        if (event.delta === '') return [];
        const append = this.text !== '';
        this.text += event.delta;
        return [
          this.artifactUpdate({ ...answerArtifact(event.delta), artifactId: ANSWER_ARTIFACT_ID }, append),
        ];
      }
      case 'tool_call_suspended':
        this.open.set(event.toolCallId, openTicketOf(event.ticket, event.toolName));
        return [];
      case 'tool_call_resumed':
        this.open.delete(event.toolCallId);
        return [];
      case 'tool_call_done': {
        this.open.delete(event.toolCallId);
        const artifact = toolResultArtifact({
          toolCallId: event.toolCallId,
          toolName: event.toolName,
          outcome: event.status,
          content: event.content,
        });
        this.tools.set(event.toolCallId, artifact);
        return [this.artifactUpdate(artifact, false)];
      }
      case 'run_finish':
        return [this.setStatus(this.finishStatus(event))];
      default:
        return [];
    }
  }

  private finishStatus(event: Extract<AgentEvent, { type: 'run_finish' }>): A2aTaskStatus {
    const timestamp = iso(event.at);
    const messageId = `${this.ids.taskId}-status-${event.seq}`;
    if (event.status === 'waiting') {
      const message = inputRequiredMessage(this.openTickets(), { messageId, ...this.ids });
      return { state: 'TASK_STATE_INPUT_REQUIRED', message, timestamp };
    }
    const state = terminalStateOf(event.termination);
    const why = event.termination.type === 'error' ? event.termination.message : undefined;
    if (!why) return { state, timestamp };
    const message = { messageId, ...this.ids, role: 'ROLE_AGENT' as const, parts: [{ text: why }] };
    return { state, message, timestamp };
  }

  private setStatus(status: A2aTaskStatus): A2aStreamResponse {
    this.status = status;
    return { statusUpdate: { ...this.ids, status } };
  }

  private artifactUpdate(artifact: A2aArtifact, append: boolean): A2aStreamResponse {
    return { artifactUpdate: { ...this.ids, artifact, ...(append ? { append: true } : {}) } };
  }
}
