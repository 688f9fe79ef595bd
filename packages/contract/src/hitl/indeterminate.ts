import { z } from 'zod';
import type { DecisionOptions, TicketReference } from './approval';
import { answer } from './approval';
import type { ToolCallDecisionInput } from './decision';
import type { JsonSchema, Suspension } from './suspension';

/**
 * The suspension action of an `indeterminate` ticket: a tool declared `idempotent: false` was
 * running when its process died and no result was recorded, so nobody knows whether its side
 * effect happened. The runtime never runs such a call again by itself; a human answers.
 */
export const INDETERMINATE_ACTION = 'indeterminate';

/**
 * The answer to an `indeterminate` ticket (a decision's `result`):
 * - `retry`: run the tool again (the human checked that it did not happen);
 * - `result`: it happened; `result` becomes the tool's result (a success), the tool does not run;
 * - `fail`: the call fails with `reason` (the model reads it), the tool does not run.
 */
export const indeterminateAnswerSchema = z.discriminatedUnion('outcome', [
  z.object({ outcome: z.literal('retry') }),
  z.object({ outcome: z.literal('result'), result: z.unknown().optional() }),
  z.object({ outcome: z.literal('fail'), reason: z.string().optional() }),
]);
export type IndeterminateAnswer = z.infer<typeof indeterminateAnswerSchema>;

/** The outcomes an `indeterminate` ticket takes, in the order every door lists them. */
export const INDETERMINATE_OUTCOMES = ['retry', 'result', 'fail'] as const;
export type IndeterminateOutcome = (typeof INDETERMINATE_OUTCOMES)[number];

/** {@link indeterminateAnswerSchema} as the ticket's `responseSchema`: the judge refuses anything else. */
export const INDETERMINATE_ANSWER_JSON_SCHEMA: JsonSchema = {
  type: 'object',
  properties: {
    outcome: { enum: [...INDETERMINATE_OUTCOMES] },
    result: {},
    reason: { type: 'string' },
  },
  required: ['outcome'],
};

/** The suspension the runtime raises for a non-idempotent call found running after a crash. */
export function indeterminateSuspension(call: {
  callId: string;
  toolName: string;
  step: number;
  arguments?: unknown;
}): Suspension {
  return {
    id: `indeterminate:${call.step}:${call.callId}`,
    action: INDETERMINATE_ACTION,
    message: `"${call.toolName}" was running when its process stopped and it may not be safe to run twice: did it happen? Answer retry, result (with the value it returned) or fail.`,
    parameters: { toolName: call.toolName, arguments: call.arguments },
    responseSchema: INDETERMINATE_ANSWER_JSON_SCHEMA,
  };
}

/**
 * What a door shows of an `indeterminate` question: the answer shape, read from the ticket's own
 * `responseSchema` (the one the judge checks answers against; the contract's schema when a ticket
 * was stored without one), and the outcomes it takes. AG-UI puts it in its interrupt, A2A in its
 * `tool-indeterminate-request` data part, the AI SDK in its `data-awaken-question` part.
 */
export function indeterminateQuestionOf(ticket: { responseSchema?: JsonSchema | undefined }): {
  responseSchema: JsonSchema;
  outcomes: IndeterminateOutcome[];
} {
  return {
    responseSchema: ticket.responseSchema ?? INDETERMINATE_ANSWER_JSON_SCHEMA,
    outcomes: [...INDETERMINATE_OUTCOMES],
  };
}

/** The indeterminate answer in a decision result, or undefined when the result is not one. */
export function readIndeterminateAnswer(result: unknown): IndeterminateAnswer | undefined {
  const parsed = indeterminateAnswerSchema.safeParse(result);
  return parsed.success ? parsed.data : undefined;
}

/** A complete decision answering an `indeterminate` ticket (`resume` with the answer as result). */
export function resolveIndeterminate(
  ticket: TicketReference,
  outcome: IndeterminateAnswer,
  options: DecisionOptions = {},
): ToolCallDecisionInput {
  return answer(ticket, outcome, options);
}
