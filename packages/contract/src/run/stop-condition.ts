import { z } from 'zod';

const positiveInt = z.number().int().positive();

/** True when `pattern` compiles as a JavaScript regular expression. */
export function isValidRegex(pattern: string): boolean {
  try {
    new RegExp(pattern);
    return true;
  } catch {
    return false;
  }
}

/**
 * The seven declarative stop conditions, evaluated at StepEnd in declared order (first
 * match wins). Schemas are strict: an unknown field is rejected, so a typo never silently disables a
 * limit. `content_match.pattern` must compile, checked when the agent is defined.
 */
export const stopConditionSpecSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('max_rounds'), rounds: positiveInt }),
  z.strictObject({ type: z.literal('timeout'), seconds: z.number().positive() }),
  z.strictObject({ type: z.literal('token_budget'), maxTotal: positiveInt }),
  z.strictObject({ type: z.literal('consecutive_errors'), max: positiveInt }),
  z.strictObject({ type: z.literal('stop_on_tool'), toolName: z.string().min(1) }),
  z.strictObject({
    type: z.literal('content_match'),
    pattern: z.string().min(1).refine(isValidRegex, { message: 'pattern is not a valid regular expression' }),
    flags: z
      .string()
      .regex(/^[imsu]*$/)
      .optional(),
  }),
  z.strictObject({ type: z.literal('loop_detection'), window: z.number().int().min(2) }),
]);
export type StopConditionSpec = z.infer<typeof stopConditionSpecSchema>;
export type StopConditionType = StopConditionSpec['type'];
