import type { z } from 'zod';
import type { ToolCallResume } from '../hitl/decision';
import type { JsonSchema, ToolCallResumeMode } from '../hitl/suspension';
import type { RunContext } from '../run/run-context';

/** What a tool body receives besides its arguments. */
export interface ToolExecuteContext {
  runId: string;
  threadId: string;
  toolCallId: string;
  step: number;
  /** Aborts when the run is cancelled or its timeout fires. Tools should stop promptly. */
  signal: AbortSignal;
  /** The run request's context (caller identity, tenant, request metadata), `{}` when none was given. */
  runContext: Readonly<RunContext>;
  /** The decision that resumed this call, when the call is being replayed after a suspension. */
  resume?: ToolCallResume;
  /** The resume mode of that replay. */
  resumeMode?: ToolCallResumeMode;
}

/**
 * A tool the model may call. Arguments are validated against `parameters` before `execute` runs; an
 * invalid call never reaches `execute` and becomes an error result the model sees. `execute` may
 * return a plain output (a success) or a `ToolResult` built with `toolSuccess`, `toolWarning`,
 * `toolFailure` or `toolPending`; a throw becomes a failed result and the loop continues.
 */
export interface Tool<Args = any, Output = unknown> {
  name: string;
  description: string;
  parameters: z.ZodType<Args>;
  /** Overrides the JSON Schema derived from `parameters` for the model. */
  jsonSchema?: JsonSchema;
  execute(args: Args, context: ToolExecuteContext): Promise<Output> | Output;
}

/** Defines a tool with argument types inferred from its zod schema. */
export function defineTool<S extends z.ZodType, Output = unknown>(tool: {
  name: string;
  description: string;
  parameters: S;
  jsonSchema?: JsonSchema;
  execute(args: z.infer<S>, context: ToolExecuteContext): Promise<Output> | Output;
}): Tool<z.infer<S>, Output> {
  return tool as Tool<z.infer<S>, Output>;
}
