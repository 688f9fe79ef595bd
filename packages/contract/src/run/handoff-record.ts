import { z } from 'zod';

/** The longest handoff reason kept (the rest is cut): a reason is a note, not a payload. */
export const MAX_HANDOFF_REASON_LENGTH = 1000;

/**
 * One handoff of a run, as its record keeps it (`RunRecord.handoffs`, oldest first): at the end of
 * step `step`, the call `toolCallId` of a handoff tool of `fromAgentId` transferred the rest of the
 * run to `toAgentId`, which runs every later step of the run (same run, same thread).
 */
export const handoffRecordSchema = z.object({
  fromAgentId: z.string().min(1),
  toAgentId: z.string().min(1),
  toolCallId: z.string().min(1),
  /** The step whose end the handoff took effect at. */
  step: z.number().int().positive(),
  /** When it took effect (epoch ms, the runtime's clock). */
  at: z.number().int().nonnegative(),
  /** The reason the model gave in the call, when it gave one. */
  reason: z.string().max(MAX_HANDOFF_REASON_LENGTH).optional(),
});
export type HandoffRecord = z.infer<typeof handoffRecordSchema>;

/**
 * The agent a run executes now: the target of its last handoff (`activeAgentId`), else the agent
 * that started it (`agentId`). Every activation of the run (resume after a suspension, a crash, a
 * decision) runs this agent.
 */
export function activeAgentIdOf(record: { agentId: string; activeAgentId?: string }): string {
  return record.activeAgentId ?? record.agentId;
}
