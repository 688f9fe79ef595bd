import { z } from 'zod';
import { type ToolCallDecisionInput, toolCallDecisionInputSchema } from '../hitl/decision';
import { userMessageSchema } from '../messages/message';
import { runContextSchema } from '../run/run-context';

const controlId = z.string().min(1);
const at = z.number().int().nonnegative();

/**
 * One command for a run, delivered through its {@link RunControlInbox}: a decision for a suspended
 * call (its `id` is the `decisionId`; like a decision given to the runtime it names its call by tool
 * call id, by ticket id, or both, and the runtime resolves and checks it when it applies it), a
 * cancel, or user input to add to the run's history at its next step boundary. `id` is the
 * idempotency key.
 */
export const runControlSchema = z
  .discriminatedUnion('kind', [
    z.object({ kind: z.literal('decision'), id: controlId, decision: toolCallDecisionInputSchema }),
    z.object({ kind: z.literal('cancel'), id: controlId, reason: z.string().optional(), at }),
    z.object({
      kind: z.literal('input'),
      id: controlId,
      messages: z.array(userMessageSchema).min(1),
      at,
      /**
       * Who sent the input (`caller`, set by the server from the sender's token): the run counts its
       * subject as an asker of what follows (`runAskersOf`).
       */
      context: runContextSchema.optional(),
    }),
  ])
  .superRefine((control, context) => {
    if (control.kind === 'decision' && control.id !== control.decision.decisionId) {
      context.addIssue({ code: 'custom', path: ['id'], message: 'must equal decision.decisionId' });
    }
  });
export type RunControl = z.infer<typeof runControlSchema>;
export type RunControlKind = RunControl['kind'];

/** The ids given to `RunControlInbox.remove`. */
export const runControlIdsSchema = z.array(controlId);

/** The run-control entry that carries `decision` (addressed by tool call id, ticket id or both). */
export function decisionControl(decision: ToolCallDecisionInput): RunControl {
  return { kind: 'decision', id: decision.decisionId, decision };
}

/**
 * What a pending decision entry holds on to: `ticket:<ticketId>` when it names its ticket (the one
 * suspension it answers), else `call:<toolCallId>`. An inbox keeps at most one pending decision per
 * target (and a re-sent id must name the same target). Every decision the judge accepts is bound to
 * its ticket, so two answers for one question always meet here, however the caller named them.
 */
export function decisionTarget(decision: Pick<ToolCallDecisionInput, 'toolCallId' | 'ticketId'>): string {
  return decision.ticketId !== undefined ? `ticket:${decision.ticketId}` : `call:${decision.toolCallId}`;
}

/**
 * A run's durable inbox of commands (decisions, cancel, user input). A command is written here
 * first; the process executing the run is woken (`subscribe`) and applies it at its next gate — a
 * cancel at once. The executing runtime removes an entry only after a checkpoint recorded it (the ids
 * applied are kept in the run record, which is the dedupe truth), so a process that dies after reading
 * a command loses nothing: the next activation, in any process, reads it again.
 *
 * Guarantees every implementation passes (store-conformance):
 * - `put` is durable before it resolves and idempotent by `id` while the entry is pending: the same
 *   id again → `'duplicate'`, stored once; the same id with another kind, or a decision id given for
 *   another target ({@link decisionTarget}: its tool call, or its ticket when it names no call) →
 *   `conflict`; a second pending decision for one target → `conflict`. Once an
 *   entry was removed, its id may be put again (a re-send of a command that was lost before it was
 *   recorded is accepted; the runtime ignores one it already applied);
 * - `peek` returns the pending entries in arrival order without removing them;
 * - `remove` removes exactly the entries with the given ids (unknown ids are ignored), never an entry
 *   that arrived after the caller's peek;
 * - `subscribe` calls the listener after each `'stored'` put for that run, in any process sharing the
 *   store (best effort: a listener that was disconnected may miss one, so readers also peek at their
 *   gates);
 * - a finished run's inbox is dropped with its event log, `ttlMs` after `RunEventLog.finish`, when
 *   both share a backend (`create*Stores`);
 * - invalid input (checked by `runControlInboxInputs`: ids non-empty well-formed strings, a control
 *   valid and JSON) → `validation_failed` naming the field, nothing written; a decision's `result` is
 *   stored in its JSON form. Puts and removes are idempotent per request (a re-sent put after a lost
 *   reply answers `'stored'`, not `'duplicate'`).
 */
export interface RunControlInbox {
  put(runId: string, control: RunControl): Promise<'stored' | 'duplicate'>;
  peek(runId: string): Promise<RunControl[]>;
  remove(runId: string, ids: readonly string[]): Promise<void>;
  /** Resolves once listening is active; returns an unsubscribe function. */
  subscribe(runId: string, listener: () => void): Promise<() => Promise<void>>;
}
