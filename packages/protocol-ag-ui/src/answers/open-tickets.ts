import { type OpenTicket, isClientToolTicket } from '@awaken/contract';

/**
 * True when the ticket is a frontend tool call: AG-UI streams the call and the client answers with a
 * `role:"tool"` message; it is never an interrupt. (The contract's `isClientToolTicket`; the other
 * ticket rules — `openTicketsOf`, `isApprovalTicket`, `allowsEditing` — are the contract's too.)
 */
export const isFrontendTicket: (ticket: Pick<OpenTicket, 'action'>) => boolean = isClientToolTicket;
