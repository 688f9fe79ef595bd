import type { Tool } from './tool';
import type { ToolInputSchema } from './tool-input-schema';

/**
 * A tool in the shape of AI SDK 5, 6 and 7 `tool({ description, inputSchema, execute })`, accepted
 * as is in a {@link ToolSet}, where its key is its name. `inputSchema` may be zod, another Standard
 * Schema or `jsonSchema()`; arguments are validated by it before `execute` runs.
 *
 * `execute(input, options)` receives a {@link ToolExecuteContext} as `options`: the AI SDK fields
 * `toolCallId`, `abortSignal` and `messages` (the conversation so far, in Awaken's message format),
 * plus Awaken's `runId`, `threadId`, `step` and, when the call is replayed after a suspension,
 * `resume`. It may return a value, a `ToolResult` (e.g. `toolPending` to suspend) or an async
 * iterable whose last value is the output. `options` is typed loosely so that tools written against
 * any AI SDK version's `ToolExecutionOptions` fit.
 *
 * Not supported, and refused as `invalid_config` when set: a tool without `execute` (AI SDK client
 * tools), provider-defined tools (`type: 'provider'`) and `needsApproval` (use a permission rule or
 * a ToolGate plugin that suspends the call instead).
 */
export interface AiSdkTool<Input = any, Output = unknown> {
  /** A string, or (AI SDK 7) a function of the tool context, called once with no context. */
  description?: string | ((options: any) => string);
  title?: string;
  inputSchema: ToolInputSchema<Input>;
  execute?: (input: Input, options: any) => Output | PromiseLike<Output> | AsyncIterable<Output>;
  type?: 'function' | 'dynamic' | 'provider' | (string & {});
  needsApproval?: unknown;
}

/**
 * Tools keyed by name, like an AI SDK `ToolSet`: each value an AI SDK tool or an Awaken {@link Tool}
 * (whose `name` must then equal its key).
 */
export type ToolSet = Record<string, AiSdkTool | Tool>;
