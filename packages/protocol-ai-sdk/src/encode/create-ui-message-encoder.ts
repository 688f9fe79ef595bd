import { type AgentEvent, assertNever } from '@awaken/contract';
import { finishReasonOf } from './finish-reason';
import { type EncoderState, createEncoderState } from './encoder-state';
import { streamedChunks } from './streamed-chunks';
import { subagentStarted } from './subagent-chunks';
import {
  type ToolChunkOptions,
  closeStreamingParts,
  toolArgsDelta,
  toolDone,
  toolReady,
  toolResumed,
  toolStart,
  toolSuspended,
} from './tool-chunks';
import type { AwakenMessageMetadata, UiMessageChunk } from '../wire/ui-message-chunk';

export interface UiMessageEncoderOptions {
  /**
   * The assistant message id, sent in `start`. Use the same id for every response of one run (the
   * run id is a good choice): a continuation with another id makes the client add a second message.
   */
  messageId: string;
  /**
   * `true` sends every tool part as `dynamic-tool` (for tools the UI has no types for); a function
   * decides per tool name. Default: static `tool-<name>` parts, as `streamText` sends them.
   */
  dynamicTools?: boolean | ((toolName: string) => boolean);
}

/**
 * A stateful encoder of one run's `AgentEvent`s — one or more activations — into v6 UI message
 * stream chunks for one response. Create one per response.
 */
export interface UiMessageEncoder {
  /**
   * Takes in an event the client already holds (from an earlier response for the same message):
   * updates what the encoder knows of the message — its steps and tool parts — and sends nothing.
   * Feed the run's earlier events this way before a continuation, so a resumed activation's reopened
   * step adds no `step-start` and the tool outputs update the parts the client has.
   */
  absorb(event: AgentEvent): void;
  /** The chunks for one event, in order; the first call also sends `start`. */
  push(event: AgentEvent): UiMessageChunk[];
  /**
   * Ends the response: closes what is still open and sends `finish` with the run's outcome (or, when
   * no `run_finish` arrived, `finishReason: 'other'` and status `running`: the run goes on and the
   * client may resume the stream).
   */
  end(): UiMessageChunk[];
}

function toolOptions(dynamicTools: UiMessageEncoderOptions['dynamicTools']): ToolChunkOptions {
  if (typeof dynamicTools === 'function') return { dynamic: dynamicTools };
  const all = dynamicTools === true;
  return { dynamic: () => all };
}

function closeOpenParts(state: EncoderState, out: UiMessageChunk[]): void {
  for (const id of state.openText) out.push({ type: 'text-end', id });
  for (const id of state.openReasoning) out.push({ type: 'reasoning-end', id });
  state.openText.clear();
  state.openReasoning.clear();
}

function closeStep(state: EncoderState, out: UiMessageChunk[]): void {
  closeOpenParts(state, out);
  const open = state.openStep;
  if (!open) return;
  closeStreamingParts(state, open.step, out);
  if (!open.reopened) out.push({ type: 'finish-step' });
  state.openStep = undefined;
}

function metadata(state: EncoderState, rest: Omit<AwakenMessageMetadata, 'runId' | 'threadId'>) {
  const awaken: AwakenMessageMetadata = {
    runId: state.runId ?? '',
    ...(state.threadId === undefined ? {} : { threadId: state.threadId }),
    ...rest,
  };
  return { awaken };
}

function encodeInto(state: EncoderState, tools: ToolChunkOptions, event: AgentEvent, out: UiMessageChunk[]) {
  switch (event.type) {
    case 'run_start':
      state.threadId = event.threadId;
      state.finished = undefined;
      return;
    case 'step_start': {
      const reopened = state.steps.has(event.step);
      if (state.openStep) closeStep(state, out);
      state.steps.add(event.step);
      state.openStep = { step: event.step, reopened };
      if (!reopened) out.push({ type: 'start-step' });
      return;
    }
    case 'text_start':
    case 'text_delta':
    case 'text_end':
      return streamedChunks('text', state.openText, event, out);
    case 'reasoning_start':
    case 'reasoning_delta':
    case 'reasoning_end':
      return streamedChunks('reasoning', state.openReasoning, event, out);
    case 'tool_call_start':
      return toolStart(state, tools, event, out);
    case 'tool_call_args_delta':
      return toolArgsDelta(state, event, out);
    case 'tool_call_ready':
      return toolReady(state, tools, event, out);
    case 'tool_call_suspended':
      return toolSuspended(state, tools, event, out);
    case 'tool_call_resumed':
      return toolResumed(state, event);
    case 'tool_call_done':
      return toolDone(state, tools, event, out);
    case 'inference_complete':
      state.lastModelReason = event.finishReason;
      return;
    case 'step_end':
      if (state.openStep?.step === event.step) closeStep(state, out);
      return;
    case 'subagent_start':
      return subagentStarted(state, tools, event, out);
    case 'state_snapshot':
    case 'decision_recorded':
    // how the child ended shows in the call's next event (its output, or its question)
    case 'subagent_finish':
      return;
    case 'handoff':
      // no UI chunk: a `data-` part would fail a client whose dataPartSchemas do not name it; the
      // tool call that handed off is in the stream, and the run record names the active agent
      return;
    case 'error':
      // only an error that ends the run reaches the client (at `finish`): a rejected decision or a
      // retried model failure is not fatal, and a v6 client stops at the first `error` chunk
      return;
    case 'run_finish':
      closeStep(state, out);
      state.finished = { termination: event.termination, waitingFor: [...state.waiting.keys()] };
      return;
    default:
      assertNever(event, 'agent event');
  }
}

/** When each waiting ticket that expires does (ISO 8601), keyed by ticket (approval) id; none → undefined. */
function expiriesOf(state: EncoderState, ticketIds: readonly string[]): Record<string, string> | undefined {
  const entries = ticketIds.flatMap((ticketId) => {
    const callId = state.waiting.get(ticketId);
    const at = callId === undefined ? undefined : state.tools.get(callId)?.ticket?.expiresAt;
    return at === undefined ? [] : [[ticketId, new Date(at).toISOString()] as const];
  });
  return entries.length === 0 ? undefined : Object.fromEntries(entries);
}

/** Creates the encoder for one response of the assistant message `messageId`. */
export function createUiMessageEncoder(options: UiMessageEncoderOptions): UiMessageEncoder {
  const state = createEncoderState();
  const tools = toolOptions(options.dynamicTools);
  let started = false;

  function start(out: UiMessageChunk[]): void {
    if (started) return;
    started = true;
    // parts left open by absorbed events cannot be continued: the client starts each response afresh
    state.openText.clear();
    state.openReasoning.clear();
    out.push({
      type: 'start',
      messageId: options.messageId,
      ...(state.runId === undefined ? {} : { messageMetadata: metadata(state, { status: 'running' }) }),
    });
  }

  return {
    absorb(event) {
      state.runId = event.runId;
      encodeInto(state, tools, event, []);
    },
    push(event) {
      state.runId = event.runId;
      if (event.type === 'run_start') state.threadId = event.threadId;
      const out: UiMessageChunk[] = [];
      start(out);
      encodeInto(state, tools, event, out);
      return out;
    },
    end() {
      const out: UiMessageChunk[] = [];
      start(out);
      closeStep(state, out);
      const finished = state.finished;
      if (!finished) {
        out.push({
          type: 'finish',
          finishReason: 'other',
          messageMetadata: metadata(state, { status: 'running' }),
        });
        return out;
      }
      const { termination, waitingFor } = finished;
      if (termination.type === 'error') out.push({ type: 'error', errorText: termination.message });
      const waiting = termination.type === 'suspended';
      const expiresAt = waiting ? expiriesOf(state, waitingFor) : undefined;
      out.push({
        type: 'finish',
        finishReason: finishReasonOf(termination, state.lastModelReason),
        messageMetadata: metadata(state, {
          status: waiting ? 'waiting' : 'done',
          termination: termination.type,
          ...(waiting ? { waitingFor } : {}),
          ...(expiresAt ? { expiresAt } : {}),
        }),
      });
      return out;
    },
  };
}
