import {
  type AgentEvent,
  type AgentEventOf,
  CLIENT_TOOL_ACTION,
  type DecisionRecord,
  FORK_REPEAT_ACTION,
  INDETERMINATE_ACTION,
  type RunEventLog,
  forwardedDecisionId,
  questionKindOf,
} from '@awaken/contract';
import { Histogram, Registry } from 'prom-client';
import { type OtelApi, loadOtel } from '../tracing/load-otel';

/** How a human wait ended. `answered`: a question that is neither an approval nor indeterminate got its value. */
export type WaitOutcome =
  | 'approved'
  | 'denied'
  | 'edited'
  | 'expired'
  | 'cancelled'
  | 'indeterminate'
  | 'answered';

/** One measured wait: a question from the moment it was asked to its answer (or its end). */
export interface MeasuredWait {
  runId: string;
  toolCallId: string;
  tool: string;
  /** The door the answer came through (`api`, `link`, `ai-sdk`, …); `runtime` for an expiry or a cancel. */
  channel: string;
  outcome: WaitOutcome;
  askedAt: number;
  answeredAt: number;
}

/** What the meter needs of OpenTelemetry: a tracer whose spans take explicit start and end times. */
interface WaitTracer {
  startSpan(
    name: string,
    options: { attributes: Record<string, string | number>; startTime: number },
  ): { end(endTime?: number): void };
}

export interface ApprovalWaitMeterOptions {
  /** The Prometheus registry the histogram registers in (pass the HTTP app's `registry`). Default: its own. */
  registry?: Registry;
  /** `@opentelemetry/api` (default: loaded when installed; `null`: no spans). */
  api?: OtelApi | null;
  /** Called with every measured wait (tests, logs). */
  onWait?: (wait: MeasuredWait) => void;
  /** Questions remembered at once (asked in this process, not answered yet); the oldest go first. */
  maxOpen?: number;
  /**
   * Distinct `tool` label values the histogram takes; the waits of any further tool are counted under
   * `tool="other"`. A tool name can come from the model or the caller (a permission rule may ask about a
   * tool the server does not have, or a client tool the request declares), so it must not grow
   * `/metrics` without bound. Default 100.
   */
  maxToolLabels?: number;
}

/** The `tool` label of the waits of tools past `maxToolLabels`. */
export const OTHER_TOOL_LABEL = 'other';

/** The histogram's buckets, in seconds: from a quick click to a day. */
export const WAIT_BUCKETS = [1, 5, 15, 30, 60, 300, 900, 1800, 3600, 4 * 3600, 24 * 3600];

/** An ask this process saw, by `<runId>\0<toolCallId>`. */
interface OpenQuestion {
  askedAt: number;
  tool: string;
  expiresAt?: number;
}

/**
 * Measures how long people take to answer: every question a run asks (a suspended tool call that
 * is not a client tool; a sub-agent's question is measured once, at the parent's ticket that a
 * person answers — the answer the parent forwards to its child is not counted again)
 * from its `tool_call_suspended` to its answer — a `decision_recorded` (at the decision's
 * `decidedAt`), a `tool_call_done` that expired (at the ticket's `expiresAt`) or was cancelled with
 * no answer (the run was cancelled). For each:
 * - the histogram `awaken_approval_wait_seconds{outcome, tool, channel}` ({@link WAIT_BUCKETS}), at
 *   most `maxToolLabels` tools by name, the rest as `tool="other"`;
 * - an OpenTelemetry span `awaken.approval.wait` from the question to the answer (attributes
 *   `awaken.run.id`, `gen_ai.tool.call.id`, `gen_ai.tool.name`, `awaken.approval.outcome`,
 *   `awaken.approval.channel`), made when the answer is seen, with the question's start time.
 *
 * It reads the events of the activations this process executes (`MailboxServiceOptions.observeEvents`);
 * the times are the events' own, never the meter's clock. A question asked in another process (a
 * run resumed, expired or cancelled here) has its ask read back from the run's event log once, so
 * every wait is measured by the process that sees it end, whichever process asked.
 */
export interface ApprovalWaitMeter {
  readonly registry: Registry;
  /** Feeds appended events (pass as `observeEvents`); never throws, never blocks the append. */
  observe(batch: { runId: string; events: readonly AgentEvent[]; eventLog: RunEventLog }): void;
  /** Settles once every read-back of an ask started so far is done (tests). */
  idle(): Promise<void>;
}

export function createApprovalWaitMeter(options: ApprovalWaitMeterOptions = {}): ApprovalWaitMeter {
  const registry = options.registry ?? new Registry();
  const maxOpen = options.maxOpen ?? 10_000;
  const maxToolLabels = options.maxToolLabels ?? 100;
  const toolLabels = new Set<string>();
  const toolLabelOf = (tool: string): string => {
    if (toolLabels.has(tool)) return tool;
    if (toolLabels.size >= maxToolLabels) return OTHER_TOOL_LABEL;
    toolLabels.add(tool);
    return tool;
  };
  const histogram = new Histogram({
    name: 'awaken_approval_wait_seconds',
    help: 'Time from a question (a suspended tool call) to its answer, by outcome, tool and channel',
    labelNames: ['outcome', 'tool', 'channel'],
    buckets: WAIT_BUCKETS,
    registers: [registry],
  });
  const api = options.api === undefined ? loadOtel() : options.api;
  const tracer = api ? (api.trace.getTracer('@awaken/server') as unknown as WaitTracer) : undefined;
  const open = new Map<string, OpenQuestion>();
  const pending = new Set<Promise<void>>();

  function record(wait: MeasuredWait): void {
    const seconds = Math.max(0, wait.answeredAt - wait.askedAt) / 1000;
    histogram.observe(
      { outcome: wait.outcome, tool: toolLabelOf(wait.tool), channel: wait.channel },
      seconds,
    );
    tracer
      ?.startSpan('awaken.approval.wait', {
        startTime: wait.askedAt,
        attributes: {
          'awaken.run.id': wait.runId,
          'gen_ai.tool.call.id': wait.toolCallId,
          'gen_ai.tool.name': wait.tool,
          'awaken.approval.outcome': wait.outcome,
          'awaken.approval.channel': wait.channel,
        },
      })
      .end(Math.max(wait.askedAt, wait.answeredAt));
    options.onWait?.(wait);
  }

  function ask(runId: string, event: AgentEventOf<'tool_call_suspended'>): void {
    const { ticket } = event;
    if (!measured(ticket)) return;
    const key = keyOf(runId, event.toolCallId);
    open.delete(key);
    open.set(key, {
      askedAt: event.at,
      tool: event.toolName,
      ...(ticket.expiresAt === undefined ? {} : { expiresAt: ticket.expiresAt }),
    });
    if (open.size > maxOpen) {
      const [oldest] = open.keys();
      if (oldest !== undefined) open.delete(oldest);
    }
  }

  /** The answer to a question, once its ask is known (from memory, else read back from the log). */
  function answer(
    runId: string,
    toolCallId: string,
    eventLog: RunEventLog,
    beforeSeq: number,
    settle: (question: OpenQuestion) => MeasuredWait | undefined,
  ): void {
    const key = keyOf(runId, toolCallId);
    const known = open.get(key);
    if (known) {
      open.delete(key);
      const wait = settle(known);
      if (wait) record(wait);
      return;
    }
    const reading = readAsk(eventLog, runId, toolCallId, beforeSeq)
      .then((question) => {
        const wait = question ? settle(question) : undefined;
        if (wait) record(wait);
      })
      .catch(() => undefined)
      .finally(() => pending.delete(reading));
    pending.add(reading);
  }

  function observeEvent(runId: string, event: AgentEvent, eventLog: RunEventLog): void {
    switch (event.type) {
      case 'tool_call_suspended':
        ask(runId, event);
        return;
      case 'decision_recorded': {
        const decision = event.record;
        // a parent's answer forwarded to its child run is measured once, at the parent's question
        if (decision.decisionId.startsWith(FORWARDED) || decision.shown.action === CLIENT_TOOL_ACTION) return;
        answer(runId, decision.toolCallId, eventLog, event.seq, (question) => ({
          runId,
          toolCallId: decision.toolCallId,
          tool: question.tool,
          channel: decision.channel ?? 'unknown',
          outcome: outcomeOf(decision),
          askedAt: question.askedAt,
          answeredAt: decision.decidedAt,
        }));
        return;
      }
      case 'tool_call_done': {
        if (event.status === 'expired') {
          answer(runId, event.toolCallId, eventLog, event.seq, (question) => ({
            runId,
            toolCallId: event.toolCallId,
            tool: question.tool,
            channel: 'runtime',
            outcome: 'expired',
            askedAt: question.askedAt,
            answeredAt: question.expiresAt ?? event.at,
          }));
          return;
        }
        // cancelled with the question still open: nobody answered (a run cancelled while it waited);
        // a call that was answered was settled by its decision_recorded (the read-back of an ask made
        // in another process finds that decision and measures nothing)
        if (event.status !== 'cancelled') {
          open.delete(keyOf(runId, event.toolCallId));
          return;
        }
        answer(runId, event.toolCallId, eventLog, event.seq, (question) => ({
          runId,
          toolCallId: event.toolCallId,
          tool: question.tool,
          channel: 'runtime',
          outcome: 'cancelled',
          askedAt: question.askedAt,
          answeredAt: event.at,
        }));
        return;
      }
      default:
        return;
    }
  }

  return {
    registry,
    observe({ runId, events, eventLog }) {
      for (const event of events) {
        try {
          observeEvent(runId, event, eventLog);
        } catch {
          // measuring never fails an append
        }
      }
    },
    async idle() {
      while (pending.size > 0) await Promise.all([...pending]);
    },
  };
}

/** The outcome a decision gives its question. */
export function outcomeOf(decision: DecisionRecord): WaitOutcome {
  // a fork's question before a repeat takes the same answers as a crashed call's
  if (decision.shown.action === INDETERMINATE_ACTION || decision.shown.action === FORK_REPEAT_ACTION)
    return 'indeterminate';
  if (decision.answer.action === 'cancel' || decision.answer.approved === false) return 'denied';
  if (decision.answer.editedArguments !== undefined) return 'edited';
  if (decision.answer.approved === true) return 'approved';
  return 'answered';
}

/** A question a person answers: not a client tool's output. */
function measured(ticket: AgentEventOf<'tool_call_suspended'>['ticket']): boolean {
  return questionKindOf(ticket) !== 'client_tool';
}

/** The prefix of a decision a parent run forwarded to its child (`forwardedDecisionId`). */
const FORWARDED = forwardedDecisionId('');

function keyOf(runId: string, toolCallId: string): string {
  return `${runId}\u0000${toolCallId}`;
}

/** How many events one read-back reads at a time, and at most in all. */
const READ_PAGE = 500;
const READ_MAX = 20_000;

/**
 * The last ask of `toolCallId` before `beforeSeq` that no decision answered, read back from the run's
 * event log.
 */
async function readAsk(
  eventLog: RunEventLog,
  runId: string,
  toolCallId: string,
  beforeSeq: number,
): Promise<OpenQuestion | undefined> {
  let found: OpenQuestion | undefined;
  let after = 0;
  while (after < beforeSeq - 1 && after < READ_MAX) {
    const page = await eventLog.read(runId, { afterSeq: after, limit: READ_PAGE });
    if (page.length === 0) break;
    for (const event of page) {
      if (event.seq >= beforeSeq) return found;
      if (event.type === 'tool_call_suspended' && event.toolCallId === toolCallId) {
        found = !measured(event.ticket)
          ? undefined
          : {
              askedAt: event.at,
              tool: event.toolName,
              ...(event.ticket.expiresAt === undefined ? {} : { expiresAt: event.ticket.expiresAt }),
            };
      } else if (event.type === 'decision_recorded' && event.record.toolCallId === toolCallId) {
        found = undefined;
      }
      after = event.seq;
    }
  }
  return found;
}
