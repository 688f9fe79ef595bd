import {
  type OpenTicket,
  type RunRecord,
  openTicketsOf as ticketsOf,
  readToolCallStates,
} from '@awaken/contract';

export type { OpenTicket };

/**
 * The tickets a stored run waits on now, in call order, each with its expiry: what an
 * `input-required` status shows and what a continuation may answer. A run that does not wait has none.
 */
export function openTicketsOf(record: Pick<RunRecord, 'status' | 'state'>): OpenTicket[] {
  if (record.status !== 'waiting') return [];
  return ticketsOf({ calls: readToolCallStates(record) });
}
