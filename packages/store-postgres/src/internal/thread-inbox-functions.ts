import {
  AwakenError,
  type MessageRecord,
  type NewMessage,
  type RunControl,
  type RunRecord,
  type Thread,
  decisionTarget,
  isResentRunControl,
  reusedRunControlId,
  secondPendingDecision,
  threadTitleOf,
} from '@awaken/contract';
import { expectLength } from './checkpoint-checks';
import { conflict, notFound } from './errors';
import type { FunctionCall } from './function-call';
import { key, payloadOf } from './keys';

/**
 * The calls of the thread and inbox functions (migration 8) and the decoding of their replies: a
 * refusal (`!` + JSON) becomes the AwakenError the TypeScript transactions raised (same codes,
 * messages and details).
 */

const json = JSON.stringify;

const unexpected = (reply: string) =>
  new AwakenError('store_failure', `postgres: an unexpected reply ${reply.slice(0, 200)}`);

/** The store clock of a `{"at":…}` reply. */
function atOf(reply: string): number {
  if (reply.startsWith('!')) throw unexpected(reply);
  return (JSON.parse(reply) as { at: number }).at;
}

/** One call of `tr_create_thread`: the record without its timestamps (the function adds them). */
export function createThreadCall(id: string, metadata: Record<string, unknown>): FunctionCall {
  return { fn: 'tr_create_thread', args: [key(id), json({ id, metadata })] };
}

/** The thread `tr_create_thread` created, or `conflict` when the id is taken. */
export function createThreadReply(reply: string, id: string, metadata: Record<string, unknown>): Thread {
  if (reply === '!{"code":"exists"}') throw conflict(`thread ${id} already exists`, { id });
  const at = atOf(reply);
  return { id, metadata, createdAt: at, updatedAt: at };
}

/** One call of `tr_append_messages`: the records without their createdAt, the title they give. */
export function appendMessagesCall(threadId: string, expected: number, messages: NewMessage[]): FunctionCall {
  const title = threadTitleOf(messages);
  return {
    fn: 'tr_append_messages',
    args: [
      key(threadId),
      expected,
      messages.map((message) => message.visibility),
      messages.map((message, index) => json({ ...message, threadId, seq: expected + index + 1 })),
      title === undefined ? null : json(title),
    ],
  };
}

/** The records `tr_append_messages` wrote (rebuilt from its clock), or its refusal. */
export function appendMessagesReply(
  reply: string,
  threadId: string,
  expected: number,
  messages: NewMessage[],
): MessageRecord[] {
  if (reply === '!{"code":"no_thread"}') throw notFound('thread', threadId);
  if (reply.startsWith('!')) {
    const refusal = JSON.parse(reply.slice(1)) as { code: string; actual?: number };
    if (refusal.code !== 'stale_append') throw unexpected(reply);
    expectLength(threadId, Number(refusal.actual), expected);
    throw unexpected(reply);
  }
  const at = atOf(reply);
  return messages.map((message, index) => ({
    ...message,
    threadId,
    seq: expected + index + 1,
    createdAt: at,
  }));
}

/** One call of `tr_create_run` (createRun). */
export function createRunCall(run: RunRecord): FunctionCall {
  return {
    fn: 'tr_create_run',
    args: [key(run.threadId), key(run.runId), json(run.runId), run.status, json(run)],
  };
}

/** Nothing, or the refusal of `tr_create_run`. */
export function createRunReply(reply: string, run: RunRecord): void {
  if (reply === 'ok') return;
  if (reply === '!{"code":"no_thread"}') throw notFound('thread', run.threadId);
  if (reply === '!{"code":"run_exists"}')
    throw conflict(`run ${run.runId} already exists`, { id: run.runId });
  throw unexpected(reply);
}

/** One call of `ib_put`; `channel` is the inbox channel NOTIFY wakes subscribers on. */
export function inboxPutCall(channel: string, runId: string, entry: RunControl): FunctionCall {
  const target = entry.kind === 'decision' ? decisionTarget(entry.decision) : null;
  return {
    fn: 'ib_put',
    args: [
      channel,
      payloadOf(key(runId)),
      key(runId),
      key(entry.id),
      entry.kind,
      target === null ? null : key(target),
      json(entry),
    ],
  };
}

/** What `ib_put` answered: stored, a re-sent put of a stored entry, or the contract's refusals. */
export function inboxPutReply(reply: string, runId: string, entry: RunControl): 'stored' | 'duplicate' {
  if (reply === 'stored') return 'stored';
  if (reply.startsWith('=')) {
    if (isResentRunControl(JSON.parse(reply.slice(1)) as RunControl, entry)) return 'duplicate';
    throw reusedRunControlId(runId, entry.id);
  }
  if (reply.startsWith('!') && entry.kind === 'decision') {
    const pending = JSON.parse(reply.slice(1)) as RunControl;
    throw secondPendingDecision(runId, decisionTarget(entry.decision), pending.id);
  }
  throw unexpected(reply);
}

/** One call of `ib_remove`. */
export function inboxRemoveCall(runId: string, ids: readonly string[]): FunctionCall {
  return { fn: 'ib_remove', args: [key(runId), ids.map(key)] };
}
