import type { z } from 'zod';
import type { ToolCallResume } from '../hitl/decision';
import type { JsonSchema, SuspendTicket, ToolCallResumeMode } from '../hitl/suspension';
import type { Message } from '../messages/message';
import type { JsonSchemaInput, StandardSchemaLike, ToolInputSchema } from './tool-input-schema';
import type { RunContext } from '../run/run-context';
import type { SubRuns } from '../subagents/sub-runs';

/**
 * What a tool body receives besides its arguments. It carries the fields of AI SDK's tool execution
 * options (`toolCallId`, `abortSignal`, `messages`), so an AI SDK tool's `execute` runs unchanged.
 */
export interface ToolExecuteContext {
  runId: string;
  threadId: string;
  toolCallId: string;
  step: number;
  /** Aborts when the run is cancelled or its timeout fires. Tools should stop promptly. */
  signal: AbortSignal;
  /** The run request's context (caller identity, tenant, request metadata), `{}` when none was given. */
  runContext: Readonly<RunContext>;
  /** The same signal as `signal`, under the name AI SDK tools read. */
  abortSignal: AbortSignal;
  /** The conversation so far, in Awaken's message format (a copy: changing it changes nothing). */
  messages: readonly Message[];
  /** The decision that resumed this call, when the call is being replayed after a suspension. */
  resume?: ToolCallResume;
  /** The resume mode of that replay. */
  resumeMode?: ToolCallResumeMode;
  /**
   * The ticket `resume` answers (the call's suspension as stored), when the call is replayed after
   * one. A ticket with `suspension.nested` is answered for a child run: forward the decision there.
   */
  ticket?: SuspendTicket;
  /**
   * Agent ids from the top-level run's agent to this run's agent (`[agentId]` for a top-level run).
   * Given by the runtime; absent when a tool is called by something else.
   */
  agentPath?: readonly string[];
  /** Runs agents of the same runtime as child runs of this call (see {@link SubRuns}); given by the runtime. */
  subRuns?: SubRuns;
}

/**
 * A tool the model may call. Arguments are validated against `parameters` (zod, another Standard
 * Schema, or a JSON Schema through `jsonSchemaInput`) before `execute` runs; an invalid call never
 * reaches `execute` and becomes an error result the model sees. `execute` may return a plain output
 * (a success) or a `ToolResult` built with `toolSuccess`, `toolWarning`, `toolFailure` or
 * `toolPending`; a throw becomes a failed result and the loop continues.
 *
 * The JSON Schema the model sees is produced by the schema's own library (zod's `.describe()` and
 * `.meta()` survive even when the application's zod is another copy than Awaken's).
 */
export interface Tool<Args = any, Output = unknown> {
  name: string;
  description: string;
  parameters: z.ZodType<Args> | ToolInputSchema<Args>;
  /** Overrides the JSON Schema derived from `parameters` for the model. */
  jsonSchema?: JsonSchema;
  /**
   * How long (ms) a ticket raised for a call of this tool waits for an answer; past it the call
   * resolves as `expired` (the model is told, the call never ran). A permission rule's
   * `approvalTimeout` wins over it; it wins over the agent's default.
   */
  approvalTimeout?: number;
  /**
   * `false` when running the tool twice would repeat a side effect (a payment, an email). A run
   * resumed after a crash while such a call was running, with no result recorded, never runs it
   * again by itself: the call suspends with an `indeterminate` ticket and a human answers retry,
   * result or fail. Default `true` (the call simply runs again).
   */
  idempotent?: boolean;
  /**
   * `true` for a tool the agent declares but the client executes: its body only suspends the call
   * with a `client_tool` ticket (`toolPending` with action `CLIENT_TOOL_ACTION`) whose answer is the
   * result. A run request may then declare a client tool of the same name (AG-UI `tools`, which
   * CopilotKit's frontend tools send on every run) without being refused; the agent's declaration
   * wins (its description and parameters are what the model sees and what a call is checked
   * against). A request declaring any other agent tool is refused: it would shadow a tool the server
   * executes. Default `false`.
   */
  clientTool?: boolean;
  execute(args: Args, context: ToolExecuteContext): Promise<Output> | Output;
}

/** The arguments a tool receives, inferred from its input schema (zod, Standard Schema, JSON Schema). */
export type InferToolInput<S> = S extends z.ZodType
  ? z.output<S>
  : S extends StandardSchemaLike<infer Output>
    ? Output
    : S extends JsonSchemaInput<infer Output>
      ? Output
      : S extends () => infer Lazy
        ? InferToolInput<Lazy>
        : unknown;

/**
 * Defines a tool with argument types inferred from its schema: zod (any copy or 4.x version of it),
 * another Standard Schema, or a JSON Schema through `jsonSchemaInput`.
 */
export function defineTool<S extends z.ZodType | ToolInputSchema, Output = unknown>(tool: {
  name: string;
  description: string;
  parameters: S;
  jsonSchema?: JsonSchema;
  approvalTimeout?: number;
  idempotent?: boolean;
  clientTool?: boolean;
  execute(args: InferToolInput<S>, context: ToolExecuteContext): Promise<Output> | Output;
}): Tool<InferToolInput<S>, Output> {
  return tool as Tool<InferToolInput<S>, Output>;
}
