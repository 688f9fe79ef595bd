import {
  agentDriftSchema,
  messageRecordSchema,
  runDispatchSchema,
  runRecordSchema,
  runWaitingTicketSchema,
  threadSchema,
} from '@awaken/contract';
import { z } from '@hono/zod-openapi';
import { json } from './common-schemas';

// contract schemas are re-wrapped: their own objects predate the OpenAPI extension of zod
export const threadViewSchema = z.object(threadSchema.shape).openapi('Thread');
export const messageViewSchema = z.object(messageRecordSchema.shape).openapi('Message');
/** A run as the API shows it: the record without its internal state. */
// `context` is any JSON object; the contract's recursive JSON schema has no OpenAPI rendering
export const runViewSchema = z
  .object({
    ...runRecordSchema.omit({ state: true, context: true }).shape,
    context: z.record(z.string(), z.unknown()).optional(),
    /**
     * On `GET /v1/runs/:id`: how the agent that started the run is defined differently now than its
     * `agentPin` records (a deploy while it waited); absent when nothing changed.
     */
    agentDrift: agentDriftSchema.optional(),
  })
  .openapi('Run');
export type RunView = z.infer<typeof runViewSchema>;
export const ticketViewSchema = z.object(runWaitingTicketSchema.shape).openapi('WaitingTicket');
/** A dispatch as the API shows it: without its claim token. */
/** A dispatch as a tenant sees it: no claim token, and no worker id (it names a host and a pid). */
export const dispatchViewSchema = z
  .object(runDispatchSchema.omit({ claimToken: true, claimedBy: true }).shape)
  .openapi('Dispatch');
export type DispatchView = z.infer<typeof dispatchViewSchema>;

export const pageOf = <S extends z.ZodType>(item: S, name: string) =>
  z.object({ items: z.array(item), nextCursor: z.string().optional() }).openapi(name);

export const activeRunViewSchema = z
  .object({
    activeRun: z
      .object({
        kind: z.enum(['active', 'open']),
        runId: z.string(),
        threadId: z.string(),
        run: runViewSchema,
        tickets: z.array(ticketViewSchema),
      })
      .nullable(),
  })
  .openapi('ActiveRun');

export const receiptSchema = z
  .object({
    toolCallId: z.string().optional(),
    ticketId: z.string().optional(),
    decisionId: z.string(),
    status: z.enum(['accepted', 'duplicate', 'rejected']),
    reason: z.string().optional(),
    message: z.string().optional(),
  })
  .openapi('DecisionReceipt');

export const decideResultSchema = z
  .object({ runId: z.string(), receipts: z.array(receiptSchema), resumeDispatchId: z.string().optional() })
  .openapi('DecideResult');

export const submittedSchema = z
  .object({ runId: z.string(), threadId: z.string(), dispatchId: z.string() })
  .openapi('SubmittedRun');

const stoppedRunSchema = z.object({ runId: z.string().nullable(), status: z.string().nullable() });

/** What a protocol door's stop answers; `conversation` is what the door calls the thread (a chat, a thread). */
export function stoppedRunResponse(conversation: string) {
  return json(
    stoppedRunSchema,
    `The stopped run (both null when nothing ran); an unknown ${conversation} is a 404`,
  );
}
