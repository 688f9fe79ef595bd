import { z } from 'zod';
import type { RunWaitingTicket } from '../run/run-waiting-state';
import { jsonSchemaSchema } from '../hitl/suspension';
import type { SuspendTicket } from '../hitl/suspension';

/**
 * A tool the client executes (a browser tool of an AG-UI or `useChat` client), declared per run
 * request with a JSON Schema. The model sees it like a server tool; a call to it is checked against
 * `parameters`, then suspends with a ticket whose action is {@link CLIENT_TOOL_ACTION} and whose resume
 * mode is `use_decision_as_tool_result`: the client's output, sent back as a decision
 * (`answer(ticket, output)`), becomes the tool result.
 */
export const clientToolSchema = z.object({
  name: z.string().min(1),
  description: z.string().default(''),
  parameters: jsonSchemaSchema,
});
export type ClientTool = z.input<typeof clientToolSchema>;

/** The suspension action of a call to a client tool. */
export const CLIENT_TOOL_ACTION = 'client_tool';

/** True when a ticket (of an event or of a waiting run) waits for a client tool's output. */
export function isClientToolTicket(
  ticket: Pick<SuspendTicket, 'suspension'> | Pick<RunWaitingTicket, 'action'>,
): boolean {
  return ('suspension' in ticket ? ticket.suspension.action : ticket.action) === CLIENT_TOOL_ACTION;
}
