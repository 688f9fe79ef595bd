import type { AgentEvent, RunStatus, TerminationReason } from '@awaken/contract';
import { AG_UI_PROTOCOL_VERSION, type AgUiEvent, type AgUiMessage } from '../wire/ag-ui-event';
import { type AgUiEncoderOptions, createAgUiEncoder } from './create-ag-ui-encoder';
import type { OpenTicket } from '@awaken/contract';
import { isFrontendTicket } from '../answers/open-tickets';
import { toInterrupt } from './interrupts';

/** How the stored run stands once the streamed activation ended: what decides the terminal event. */
export interface AgUiRunEnding {
  status: RunStatus;
  termination?: TerminationReason;
  /** The tickets the run waits on (when `waiting`). */
  tickets: readonly OpenTicket[];
  /** The thread's messages, for the `MESSAGES_SNAPSHOT` before an interrupt. */
  messages(): Promise<AgUiMessage[]>;
}

export interface EncodeAgUiRunOptions extends AgUiEncoderOptions {
  threadId: string;
  /** The run id `RUN_STARTED`/`RUN_FINISHED` carry: the request's `runId`. */
  runId: string;
  /** Earlier events of the run the client saw before (only read for the last state). */
  history?: readonly AgentEvent[];
  /** Reads the stored run after the events end. */
  settle(): Promise<AgUiRunEnding>;
  /** Also writes the pre-1.0 `CUSTOM on_interrupt` event before an interrupt (CopilotKit Channels). */
  legacyInterruptEvent?: boolean;
  /**
   * Also writes a `MESSAGES_SNAPSHOT` before a `RUN_FINISHED` that is not an interrupt (which always
   * has one): the client's thread is replaced by the server's, e.g. to drop the tool messages it
   * holds for calls the server answered (`supersededToolMessages`).
   */
  closingSnapshot?: boolean;
  /** Events written right after `RUN_STARTED` (a reconnect's `MESSAGES_SNAPSHOT`). */
  preamble?: readonly AgUiEvent[];
  /** Set when the client went away: nothing more is written. */
  signal?: AbortSignal;
}

function errorOf(error: unknown): { code: string; message: string } {
  const code =
    typeof error === 'object' && error !== null && typeof (error as { code?: unknown }).code === 'string'
      ? (error as { code: string }).code
      : 'internal';
  return { code, message: error instanceof Error ? error.message : String(error) };
}

async function ending(options: EncodeAgUiRunOptions, state: Record<string, unknown>): Promise<AgUiEvent[]> {
  const settled = await options.settle();
  const events = await outcome(options, settled, state);
  const finished = events.at(-1);
  if (!options.closingSnapshot || finished?.type !== 'RUN_FINISHED' || finished.outcome?.type === 'interrupt')
    return events;
  return [{ type: 'MESSAGES_SNAPSHOT', messages: await settled.messages() }, ...events];
}

async function outcome(
  options: EncodeAgUiRunOptions,
  settled: AgUiRunEnding,
  state: Record<string, unknown>,
): Promise<AgUiEvent[]> {
  const { threadId, runId } = options;
  const termination = settled.termination;
  if (settled.status === 'waiting') {
    const interrupts = settled.tickets.filter((ticket) => !isFrontendTicket(ticket)).map(toInterrupt);
    if (interrupts.length === 0) {
      const pendingToolCallIds = settled.tickets.map((ticket) => ticket.toolCallId);
      return [{ type: 'RUN_FINISHED', threadId, runId, outcome: { type: 'success', pendingToolCallIds } }];
    }
    return [
      { type: 'STATE_SNAPSHOT', snapshot: state },
      { type: 'MESSAGES_SNAPSHOT', messages: await settled.messages() },
      ...(options.legacyInterruptEvent
        ? [{ type: 'CUSTOM' as const, name: 'on_interrupt', value: JSON.stringify(interrupts) }]
        : []),
      { type: 'RUN_FINISHED', threadId, runId, outcome: { type: 'interrupt', interrupts } },
    ];
  }
  if (settled.status !== 'done') {
    return [
      {
        type: 'RUN_ERROR',
        code: 'stream_ended',
        message: `the run is ${settled.status}: reconnect to follow it`,
      },
    ];
  }
  if (termination?.type === 'error') {
    return [{ type: 'RUN_ERROR', code: termination.code ?? 'run_failed', message: termination.message }];
  }
  if (termination?.type === 'cancelled') {
    return [{ type: 'RUN_FINISHED', threadId, runId, outcome: { type: 'cancelled' } }];
  }
  return [
    {
      type: 'RUN_FINISHED',
      threadId,
      runId,
      outcome: { type: 'success' },
      ...(termination && termination.type !== 'natural_end' ? { result: { termination } } : {}),
    },
  ];
}

/**
 * One AG-UI response for Awaken events: `RUN_STARTED` (protocol 1.0), the mapped events, then
 * exactly one terminal event decided by the stored run — `RUN_FINISHED` with outcome `interrupt`
 * (after `STATE_SNAPSHOT` and `MESSAGES_SNAPSHOT`) for open tickets, `success` with
 * `pendingToolCallIds` when only frontend tool calls wait, `cancelled`, plain `success`, or
 * `RUN_ERROR` when the run failed or the source broke. Everything opened is closed before it.
 */
export async function* encodeAgUiRun(
  events: AsyncIterable<AgentEvent>,
  options: EncodeAgUiRunOptions,
): AsyncGenerator<AgUiEvent> {
  const encoder = createAgUiEncoder(options);
  for (const event of options.history ?? []) encoder.prime(event);
  yield {
    type: 'RUN_STARTED',
    threadId: options.threadId,
    runId: options.runId,
    protocolVersion: AG_UI_PROTOCOL_VERSION,
  };
  yield* options.preamble ?? [];
  let tail: AgUiEvent[];
  try {
    for await (const event of events) yield* encoder.push(event);
    if (options.signal?.aborted) return;
    tail = [...encoder.close(), ...(await ending(options, encoder.state))];
  } catch (error) {
    if (options.signal?.aborted) return;
    tail = [...encoder.close(), { type: 'RUN_ERROR', ...errorOf(error) }];
  }
  yield* tail;
}

/** A response that is only an error: `RUN_STARTED`, then `RUN_ERROR` (nothing was applied). */
export function agUiErrorEvents(
  ids: { threadId: string; runId: string },
  error: { code: string; message: string },
): AgUiEvent[] {
  return [
    {
      type: 'RUN_STARTED',
      threadId: ids.threadId,
      runId: ids.runId,
      protocolVersion: AG_UI_PROTOCOL_VERSION,
    },
    { type: 'RUN_ERROR', code: error.code, message: error.message },
  ];
}
