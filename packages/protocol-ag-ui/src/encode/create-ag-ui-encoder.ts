import type { AgentEvent, AgentEventOf } from '@awaken/contract';
import type { AgUiEvent } from '../wire/ag-ui-event';
import { diffJson } from './json-patch-diff';
import { assistantMessageId, reasoningMessageId, toolResultMessageId } from './message-ids';

export interface AgUiEncoderOptions {
  /**
   * Tool calls whose result the client itself sent (a frontend tool's `role:"tool"` message): their
   * `TOOL_CALL_RESULT` is not echoed, so the client does not hold the result twice.
   */
  clientAnswered?: ReadonlySet<string>;
}

/**
 * Maps Awaken `AgentEvent`s to AG-UI events, one event at a time, for one response. It keeps what
 * AG-UI requires open and closed: every `*_START` it writes is ended before {@link close} returns,
 * a tool call streamed without its start (a replay that begins mid-call) is started first, and the
 * ids are the stable ones of `message-ids` (the runtime's own text ids are never shown). The run's
 * lifecycle events (`RUN_STARTED`, `RUN_FINISHED`) are the caller's: `run_start`, `run_finish` and
 * `inference_complete` map to nothing here. A `handoff` becomes a `CUSTOM` {@link HANDOFF_CUSTOM_EVENT}.
 */
export interface AgUiEncoder {
  /** The AG-UI events for one Awaken event (often none or one). */
  push(event: AgentEvent): AgUiEvent[];
  /** Reads an earlier event only for what later ones depend on (the last state), writing nothing. */
  prime(event: AgentEvent): void;
  /** Ends whatever is still open (text, reasoning, tool calls, a step), in AG-UI order. */
  close(): AgUiEvent[];
  /** The last state the run reported (`{}` before any): the body of a `STATE_SNAPSHOT`. */
  readonly state: Record<string, unknown>;
}

const stepName = (step: number) => `step ${step}`;

/**
 * The name of the `CUSTOM` event an Awaken `handoff` becomes (value: `fromAgentId`, `toAgentId`,
 * `toolCallId`, `step`, `reason?`), between the steps of the two agents.
 */
export const HANDOFF_CUSTOM_EVENT = 'awaken.handoff';

function resultContent(content: unknown): string {
  if (typeof content === 'string') return content;
  return JSON.stringify(content ?? null);
}

export function createAgUiEncoder(options: AgUiEncoderOptions = {}): AgUiEncoder {
  let runId = '';
  let step: number | undefined;
  let text: string | undefined;
  let reasoning: string | undefined;
  /** Started and not yet ended tool calls. */
  const openCalls = new Set<string>();
  /** Calls started in this response (ended or not). */
  const startedCalls = new Set<string>();
  let state: Record<string, unknown> = {};
  let stateSent = false;
  /** Sub-agents started in this response and not yet finished: child run id → agent id. */
  const openSubagents = new Map<string, string>();

  const endText = (): AgUiEvent[] => {
    if (text === undefined) return [];
    const messageId = text;
    text = undefined;
    return [{ type: 'TEXT_MESSAGE_END', messageId }];
  };
  const endReasoning = (): AgUiEvent[] => {
    if (reasoning === undefined) return [];
    const messageId = reasoning;
    reasoning = undefined;
    return [
      { type: 'REASONING_MESSAGE_END', messageId },
      { type: 'REASONING_END', messageId },
    ];
  };
  const endCalls = (): AgUiEvent[] => {
    const ended: AgUiEvent[] = [...openCalls].map((toolCallId) => ({ type: 'TOOL_CALL_END', toolCallId }));
    openCalls.clear();
    return ended;
  };
  /** A child left open when the response ends: its segment of this run ends suspended. */
  const endSubagents = (): AgUiEvent[] => {
    const ended: AgUiEvent[] = [...openSubagents.keys()].map((subagentRunId) => ({
      type: 'SUBAGENT_FINISHED',
      subagentRunId,
      outcome: { type: 'suspended' },
    }));
    openSubagents.clear();
    return ended;
  };
  const endStep = (): AgUiEvent[] => {
    const ended: AgUiEvent[] = [...endReasoning(), ...endText(), ...endCalls()];
    if (step !== undefined) ended.push({ type: 'STEP_FINISHED', stepName: stepName(step) });
    step = undefined;
    return ended;
  };
  const parentOf = () => (step === undefined ? undefined : assistantMessageId(runId, step));
  const startCall = (toolCallId: string, toolCallName: string): AgUiEvent[] => {
    if (startedCalls.has(toolCallId)) return [];
    startedCalls.add(toolCallId);
    openCalls.add(toolCallId);
    const parentMessageId = parentOf();
    return [
      ...endReasoning(),
      ...endText(),
      { type: 'TOOL_CALL_START', toolCallId, toolCallName, ...(parentMessageId ? { parentMessageId } : {}) },
    ];
  };

  /**
   * A delta after the start of its message: `started` is what opening it took ([] when it was open;
   * a replay may begin mid-message); an empty delta sends no content event.
   */
  const withContent = (started: AgUiEvent[], content: AgUiEvent & { delta: string }): AgUiEvent[] =>
    content.delta === '' ? started : [...started, content];

  /**
   * The child's inline activation ended: `done` → success; `waiting` → suspended (its question is
   * an interrupt of this run carrying its `subagentRunId`); `detached` → suspended too (the next
   * activation continues it); `failed` → `SUBAGENT_ERROR`. A finish whose start this response did
   * not send is dropped (the client refuses it).
   */
  function subagentFinished(event: AgentEventOf<'subagent_finish'>): AgUiEvent[] {
    const agentId = openSubagents.get(event.childRunId);
    if (agentId === undefined) return [];
    openSubagents.delete(event.childRunId);
    const subagentRunId = event.childRunId;
    switch (event.status) {
      case 'done':
        return [{ type: 'SUBAGENT_FINISHED', subagentRunId, outcome: { type: 'success' } }];
      case 'failed':
        return [
          {
            type: 'SUBAGENT_ERROR',
            subagentRunId,
            code: 'subagent_failed',
            message: `the "${agentId}" agent could not be run`,
          },
        ];
      default:
        return [{ type: 'SUBAGENT_FINISHED', subagentRunId, outcome: { type: 'suspended' } }];
    }
  }

  function push(event: AgentEvent): AgUiEvent[] {
    runId = event.runId;
    switch (event.type) {
      case 'step_start': {
        const ended = step === undefined ? [] : endStep();
        step = event.step;
        return [...ended, { type: 'STEP_STARTED', stepName: stepName(event.step) }];
      }
      case 'step_end':
        return step === undefined ? [] : endStep();
      case 'text_start': {
        if (text !== undefined) return [];
        text = assistantMessageId(runId, step ?? 0);
        return [...endReasoning(), { type: 'TEXT_MESSAGE_START', messageId: text, role: 'assistant' }];
      }
      case 'text_delta': {
        const started = push({ ...event, type: 'text_start' } as AgentEvent);
        return withContent(started, { type: 'TEXT_MESSAGE_CONTENT', messageId: text!, delta: event.delta });
      }
      case 'text_end':
        return endText();
      case 'reasoning_start': {
        if (reasoning !== undefined) return [];
        reasoning = reasoningMessageId(runId, step ?? 0);
        return [
          ...endText(),
          { type: 'REASONING_START', messageId: reasoning },
          { type: 'REASONING_MESSAGE_START', messageId: reasoning, role: 'reasoning' },
        ];
      }
      case 'reasoning_delta': {
        const started = push({ ...event, type: 'reasoning_start' } as AgentEvent);
        return withContent(started, {
          type: 'REASONING_MESSAGE_CONTENT',
          messageId: reasoning!,
          delta: event.delta,
        });
      }
      case 'reasoning_end':
        return endReasoning();
      case 'tool_call_start':
        return startCall(event.toolCallId, event.toolName);
      case 'tool_call_args_delta': {
        const started = startCall(event.toolCallId, '');
        if (!openCalls.has(event.toolCallId) || event.delta === '') return started;
        if (started.length === 0)
          return [{ type: 'TOOL_CALL_ARGS', toolCallId: event.toolCallId, delta: event.delta }];
        return [...started, { type: 'TOOL_CALL_ARGS', toolCallId: event.toolCallId, delta: event.delta }];
      }
      case 'tool_call_ready': {
        // a call first seen here (a replay starting mid-call) is streamed whole
        if (!startedCalls.has(event.toolCallId)) {
          const started = startCall(event.toolCallId, event.toolName);
          const args = event.arguments === undefined ? '' : JSON.stringify(event.arguments);
          const delta: AgUiEvent[] = args
            ? [{ type: 'TOOL_CALL_ARGS', toolCallId: event.toolCallId, delta: args }]
            : [];
          openCalls.delete(event.toolCallId);
          return [...started, ...delta, { type: 'TOOL_CALL_END', toolCallId: event.toolCallId }];
        }
        if (!openCalls.delete(event.toolCallId)) return [];
        return [{ type: 'TOOL_CALL_END', toolCallId: event.toolCallId }];
      }
      case 'tool_call_done': {
        const ended: AgUiEvent[] = openCalls.delete(event.toolCallId)
          ? [{ type: 'TOOL_CALL_END', toolCallId: event.toolCallId }]
          : [];
        if (options.clientAnswered?.has(event.toolCallId)) return ended;
        return [
          ...ended,
          {
            type: 'TOOL_CALL_RESULT',
            messageId: toolResultMessageId(runId, event.toolCallId),
            toolCallId: event.toolCallId,
            content: resultContent(event.content),
            role: 'tool',
          },
        ];
      }
      case 'state_snapshot': {
        const before = state;
        state = event.state as Record<string, unknown>;
        if (!stateSent) {
          stateSent = true;
          return [{ type: 'STATE_SNAPSHOT', snapshot: state }];
        }
        const delta = diffJson(before, state);
        return delta.length === 0 ? [] : [{ type: 'STATE_DELTA', delta }];
      }
      case 'subagent_start': {
        if (openSubagents.has(event.childRunId)) return [];
        openSubagents.set(event.childRunId, event.agentId);
        const parentMessageId = parentOf();
        return [
          ...endReasoning(),
          ...endText(),
          {
            type: 'SUBAGENT_STARTED',
            subagentRunId: event.childRunId,
            name: event.agentId,
            parentToolCallId: event.toolCallId,
            ...(parentMessageId ? { parentMessageId } : {}),
          },
        ];
      }
      case 'subagent_finish':
        return subagentFinished(event);
      case 'error':
        // the run's own error: its terminal RUN_ERROR is the caller's, from the stored run
        return [];
      case 'handoff': {
        // AG-UI has no handoff event: a CUSTOM one, which clients that do not know it ignore
        const { fromAgentId, toAgentId, toolCallId, step: handoffStep, reason } = event;
        const value = {
          fromAgentId,
          toAgentId,
          toolCallId,
          step: handoffStep,
          ...(reason ? { reason } : {}),
        };
        return [{ type: 'CUSTOM', name: HANDOFF_CUSTOM_EVENT, value }];
      }
      default:
        // run_start, run_finish, inference_complete, tool_call_suspended, tool_call_resumed,
        // decision_recorded
        return [];
    }
  }

  return {
    push,
    prime(event) {
      if (event.type === 'state_snapshot') {
        state = event.state as Record<string, unknown>;
      }
    },
    close() {
      return [...endStep(), ...endSubagents()];
    },
    get state() {
      return state;
    },
  };
}
