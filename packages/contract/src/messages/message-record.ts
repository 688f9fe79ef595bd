import { z } from 'zod';
import { messageSchema, visibilitySchema } from './message';

/**
 * One entry of a thread's append-only message log. `seq` is 1-based and dense: the n-th message of a
 * thread has `seq = n`, assigned by the store on append.
 */
export const messageRecordSchema = z.object({
  threadId: z.string().min(1),
  seq: z.number().int().positive(),
  runId: z.string().optional(),
  step: z.number().int().nonnegative().optional(),
  visibility: visibilitySchema,
  message: messageSchema,
  createdAt: z.number().int().nonnegative(),
});
export type MessageRecord = z.infer<typeof messageRecordSchema>;

/** A message to append; the store assigns `threadId`, `seq` and `createdAt`. */
export const newMessageSchema = messageRecordSchema.omit({ threadId: true, seq: true, createdAt: true });
export type NewMessage = z.infer<typeof newMessageSchema>;
