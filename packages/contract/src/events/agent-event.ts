import { z } from 'zod';
import { toolCallDecisionSchema } from '../hitl/decision';
import { decisionRecordSchema } from '../hitl/decision-record';
import { suspendTicketSchema } from '../hitl/suspension';
import { tokenUsageSchema } from '../model/token-usage';
import { runStatusSchema } from '../run/run-status';
import { terminationReasonSchema } from '../run/termination-reason';
import { toolResultSchema } from '../tool/tool-result';

const base = {
  runId: z.string().min(1),
  /** Per-run sequence number: 1, 2, 3, … with no gaps, across every resume of the run. */
  seq: z.number().int().positive(),
  /** Milliseconds since the epoch when the event was produced. */
  at: z.number().int().nonnegative(),
};

const event = <T extends string, S extends z.ZodRawShape>(type: T, shape: S) =>
  z.object({ type: z.literal(type), ...base, ...shape });

/**
 * The one event stream every consumer reads. Events of a run are totally ordered by
 * `seq`; a stream can be replayed from any `seq`. Protocol adapters are pure functions of it.
 *
 * Ordering guarantees the runtime keeps, on every exit path (natural end, stop condition, block,
 * cancel, model error, suspension):
 * - `run_start` opens every activation (a resumed activation opens with `run_start` whose `resumed`
 *   is true) and `run_finish` closes it;
 * - every `step_start` is closed by a `step_end` of the same step before the next `step_start` and
 *   before `run_finish`; model and tool events happen inside a step. An activation that continues a
 *   step begun earlier (a suspended or interrupted tool round) opens it again with `step_start` of
 *   the same step number;
 * - `text_start`/`text_end` and `reasoning_start`/`reasoning_end` bracket their deltas, also when
 *   the stream is cut;
 * - every model call of a step reports exactly one `inference_complete` after its streamed parts;
 *   a cut stream reports it too, with `finishReason` `aborted` (cancel, timeout) or `error` and the
 *   usage known so far;
 * - `tool_call_ready` precedes that call's `tool_call_suspended` or `tool_call_done`.
 */
export const agentEventSchema = z.discriminatedUnion('type', [
  event('run_start', { threadId: z.string(), agentId: z.string(), resumed: z.boolean() }),
  event('step_start', { step: z.number().int().positive() }),
  event('text_start', { messageId: z.string() }),
  event('text_delta', { messageId: z.string(), delta: z.string() }),
  event('text_end', { messageId: z.string() }),
  event('reasoning_start', { messageId: z.string() }),
  event('reasoning_delta', { messageId: z.string(), delta: z.string() }),
  event('reasoning_end', { messageId: z.string() }),
  event('tool_call_start', { toolCallId: z.string(), toolName: z.string() }),
  event('tool_call_args_delta', { toolCallId: z.string(), delta: z.string() }),
  event('tool_call_ready', {
    toolCallId: z.string(),
    toolName: z.string(),
    arguments: z.unknown().optional(),
  }),
  event('tool_call_suspended', { toolCallId: z.string(), toolName: z.string(), ticket: suspendTicketSchema }),
  event('tool_call_resumed', { toolCallId: z.string(), decision: toolCallDecisionSchema }),
  /** The audit record of a decision just applied (right after its `tool_call_resumed`). */
  event('decision_recorded', { record: decisionRecordSchema }),
  event('tool_call_done', {
    toolCallId: z.string(),
    toolName: z.string(),
    status: z.enum(['succeeded', 'failed', 'cancelled', 'expired']),
    result: toolResultSchema.optional(),
    /** The content committed to the tool message the model reads. */
    content: z.unknown().optional(),
  }),
  event('inference_complete', {
    step: z.number().int().positive(),
    model: z.string().optional(),
    usage: tokenUsageSchema,
    durationMs: z.number().nonnegative(),
    finishReason: z.string(),
  }),
  event('step_end', { step: z.number().int().positive() }),
  /**
   * The run was handed to another agent: right after the `step_end` of the step whose handoff call
   * (`toolCallId`) succeeded, outside any step; every later step runs `toAgentId`.
   */
  event('handoff', {
    fromAgentId: z.string(),
    toAgentId: z.string(),
    toolCallId: z.string(),
    step: z.number().int().positive(),
    reason: z.string().optional(),
  }),
  event('state_snapshot', { state: z.record(z.string(), z.unknown().optional()) }),
  event('run_finish', {
    status: runStatusSchema,
    termination: terminationReasonSchema,
    response: z.string().optional(),
    usage: tokenUsageSchema,
  }),
  event('error', { code: z.string(), message: z.string() }),
  /**
   * A tool call of this run starts (or continues) its child run inline (a sub-agent, `agentTool`):
   * the child's own events are in the child's stream and log, under `childRunId`. Always followed by the call's `subagent_finish` before the
   * call's `tool_call_done` / `tool_call_suspended`.
   */
  event('subagent_start', {
    toolCallId: z.string(),
    childRunId: z.string(),
    childThreadId: z.string(),
    agentId: z.string(),
    /** Agent ids from the top-level run's agent to the child's. */
    agentPath: z.array(z.string()),
  }),
  /**
   * The child's inline activation ended: `done` (its `termination` says how) or `waiting` on
   * `waitingTicketIds` (the call then suspends mirroring the first of them), `detached` (the
   * parent stopped without an outcome; its next activation continues the child) or `failed` (the
   * child could not be run, e.g. an unknown agent; the call fails with the error).
   */
  event('subagent_finish', {
    toolCallId: z.string(),
    childRunId: z.string(),
    status: z.enum(['done', 'waiting', 'detached', 'failed']),
    termination: terminationReasonSchema.optional(),
    waitingTicketIds: z.array(z.string()).optional(),
  }),
]);
export type AgentEvent = z.infer<typeof agentEventSchema>;
export type AgentEventType = AgentEvent['type'];
/** The event of one type, e.g. `AgentEventOf<'run_finish'>`. */
export type AgentEventOf<T extends AgentEventType> = Extract<AgentEvent, { type: T }>;
/** An event before the runtime stamps `runId`, `seq` and `at`. */
export type AgentEventInput = AgentEvent extends infer E
  ? E extends AgentEvent
    ? Omit<E, 'runId' | 'seq' | 'at'>
    : never
  : never;
