import { type RunRecord, type ToolCallState, readToolCallStates } from '@awaken/contract';

/**
 * The call of a stored run that waits on `ticketId`: `missing` when the run has no such ticket,
 * `answered` when its call no longer waits on it (answered, expired) or the run ended.
 */
export function waitingCallOf(
  record: RunRecord,
  ticketId: string,
):
  | { call: ToolCallState & { ticket: NonNullable<ToolCallState['ticket']> } }
  | { missing: true }
  | { answered: true } {
  const holders = readToolCallStates(record).filter((call) => call.ticket?.suspension.id === ticketId);
  if (holders.length === 0) return record.status === 'done' ? { answered: true } : { missing: true };
  const call = holders.find((candidate) => candidate.status === 'suspended');
  if (!call?.ticket || record.status === 'done') return { answered: true };
  return { call: call as ToolCallState & { ticket: NonNullable<ToolCallState['ticket']> } };
}
