import type { RunRecord } from '../run/run-record';
import { RUNTIME_STATE_PATH } from '../run/run-state-paths';
import { runStarterOf } from './decision-record';

const subjects = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string' && item !== '') : [];

/**
 * Everyone who asked for what a run does — the people a four-eyes ticket (`requiresDistinctApprover`)
 * refuses as approvers, starter first, each once:
 * - the run's starter: `context.caller.subject` ({@link runStarterOf}; the server sets `caller` from
 *   the token of whichever request started the run: a submit, a chat, an AG-UI or A2A message,
 *   injected input in `queue` or `interrupt` mode, a requeue keeps the original one);
 * - `context.askers`: subjects the server lists when it starts a run on others' behalf (input injected
 *   into a run that ended before reading it, a requeued run's earlier askers);
 * - the run's own list (`__runtime.askers` of its state): whoever sent it input that steered or
 *   resumed it, and whoever approved a call with arguments of their own (an edit asks for the edited
 *   call). The runtime adds them by the checkpoint that takes the input or applies the edit, before
 *   any question that follows is stored.
 */
export function runAskersOf(record: Pick<RunRecord, 'context' | 'state'>): string[] {
  const starter = runStarterOf(record);
  const listed = subjects(record.context?.askers);
  const runtime = record.state[RUNTIME_STATE_PATH] as { askers?: unknown } | undefined;
  const all = [...(starter === undefined ? [] : [starter]), ...listed, ...subjects(runtime?.askers)];
  return [...new Set(all)];
}
