import { z } from 'zod';
import { suspensionSchema, toolCallResumeModeSchema } from '../hitl/suspension';

const TOOL_RESULT_MARKER = Symbol.for('awaken.tool-result');

/**
 * What a tool (or a ToolGate `set_result`) produces. `success`/`warning` → call `succeeded`;
 * `error` → `failed` (the model sees the message and the loop continues); `pending` → `suspended`
 * with the given suspension.
 */
export const toolResultSchema = z.discriminatedUnion('status', [
  z.object({ status: z.literal('success'), output: z.unknown().optional() }),
  z.object({ status: z.literal('warning'), output: z.unknown().optional(), message: z.string() }),
  z.object({ status: z.literal('error'), message: z.string(), output: z.unknown().optional() }),
  z.object({
    status: z.literal('pending'),
    suspension: suspensionSchema,
    resumeMode: toolCallResumeModeSchema.optional(),
    /**
     * When the ticket stops taking answers (epoch ms), overriding every timeout: a tool mirroring a
     * child run's question sets the child ticket's own expiry, so both expire together.
     */
    expiresAt: z.number().int().nonnegative().optional(),
  }),
]);
export type ToolResult = z.infer<typeof toolResultSchema>;

function mark<T extends ToolResult>(result: T): T {
  Object.defineProperty(result, TOOL_RESULT_MARKER, { value: true, enumerable: false });
  return result;
}

/** A successful result carrying `output` (any JSON value). */
export function toolSuccess(output: unknown): ToolResult {
  return mark({ status: 'success', output });
}

/** A successful result with a warning the model also sees. */
export function toolWarning(output: unknown, message: string): ToolResult {
  return mark({ status: 'warning', output, message });
}

/** A failed result: the model sees `message`; the loop continues. */
export function toolFailure(message: string, output?: unknown): ToolResult {
  return mark(output === undefined ? { status: 'error', message } : { status: 'error', message, output });
}

/**
 * A pending result: the call suspends until a decision arrives. `options.expiresAt` fixes when its
 * ticket expires (epoch ms) instead of the gate's, tool's or agent's timeout.
 */
export function toolPending(
  suspension: z.input<typeof suspensionSchema>,
  resumeMode?: z.infer<typeof toolCallResumeModeSchema>,
  options: { expiresAt?: number } = {},
): ToolResult {
  return mark({
    status: 'pending',
    suspension,
    ...(resumeMode === undefined ? {} : { resumeMode }),
    ...(options.expiresAt === undefined ? {} : { expiresAt: options.expiresAt }),
  });
}

/** True when `value` was built by one of the `tool*` helpers (so a plain object output is not mistaken). */
export function isToolResult(value: unknown): value is ToolResult {
  return typeof value === 'object' && value !== null && TOOL_RESULT_MARKER in value;
}
