import { AwakenError, type RunRecord, type UserMessage, userMessageSchema } from '@awaken/contract';
import { z } from 'zod';
import type { ServiceStores } from '../../types';

const storedInput = z.object({ input: z.array(userMessageSchema).optional() });

/**
 * The user input a run was started with: the user messages of its input range on the thread, or —
 * for a run that never started — the input its record still holds.
 */
export async function runInput(stores: ServiceStores, record: RunRecord): Promise<UserMessage[]> {
  if (record.inputRange) {
    const messages = await stores.threadRuns.readMessages(record.threadId, record.inputRange);
    const users = messages.flatMap((entry) => (entry.message.role === 'user' ? [entry.message] : []));
    if (users.length > 0) return users;
  }
  const parsed = storedInput.safeParse(record.state.__runtime ?? {});
  const input = parsed.success ? parsed.data.input : undefined;
  if (!input || input.length === 0) {
    throw new AwakenError('conflict', `run ${record.runId} has no input to requeue`);
  }
  return input;
}
