import {
  AwakenError,
  type ClaimProof,
  type MailboxInterrupt,
  type RunDispatch,
  type RunDispatchResult,
  type mailboxStoreInputs as inputs,
  runDispatchSchema,
} from '@awaken/contract';
import { staleClaim } from './dispatch-rows';
import { conflict, notFound } from './errors';
import { type FunctionCall, sqlLiteral } from './function-call';
import { key } from './keys';
import type { ClaimOnEnqueue } from './claim-on-enqueue';

/**
 * The calls of the mailbox functions (migration 5) and the decoding of their replies: a reply is the
 * JSON the call answers, or `!` + JSON naming a refusal, turned here into the AwakenError the
 * TypeScript path raised (same codes, messages and details).
 */

type ParsedEnqueue = ReturnType<typeof inputs.enqueue.parse>;

/** A dispatch the function answered, checked against the contract (a corrupt row is a store_failure). */
function asDispatch(value: unknown): RunDispatch {
  const parsed = runDispatchSchema.safeParse(value);
  if (!parsed.success) throw new AwakenError('store_failure', `postgres: a stored dispatch is malformed`);
  return parsed.data;
}

/** A candidate window of at least 64 rows (4 × limit), as `claimDue`. */
const SCAN = 64;

const json = JSON.stringify;

export function enqueueCall(
  parsed: ParsedEnqueue,
  dispatchId: string,
  wake: string,
  claim?: ClaimOnEnqueue,
): FunctionCall {
  // the record without what the function adds: epoch, status, availableAt, timestamps, the claim
  const base = json({
    dispatchId,
    threadId: parsed.threadId,
    runId: parsed.runId,
    priority: parsed.priority,
    ...(parsed.dedupeKey === undefined ? {} : { dedupeKey: parsed.dedupeKey }),
    attemptCount: 0,
    maxAttempts: parsed.maxAttempts,
  });
  const claimFields =
    claim === undefined
      ? null
      : `,"claimedBy":${json(claim.workerId)}${
          claim.dispatchInstanceId === undefined
            ? ''
            : `,"dispatchInstanceId":${json(claim.dispatchInstanceId)},"runStatus":"running"`
        }`;
  return {
    fn: 'mb_enqueue',
    args: [
      wake,
      key(dispatchId),
      key(parsed.threadId),
      parsed.dedupeKey === undefined ? null : key(parsed.dedupeKey),
      base,
      parsed.priority,
      parsed.availableAt ?? null,
      claimFields,
      claim?.leaseMs ?? null,
    ],
  };
}

export function claimCall(input: { workerId: string; limit: number; leaseMs: number }): FunctionCall {
  return {
    fn: 'mb_claim',
    args: [json(input.workerId), input.limit, input.leaseMs, Math.max(SCAN, input.limit * 4)],
  };
}

/** What a fenced claimant write changes (see `mb_settle`). */
export interface Settle {
  /** The status it moves to, or `nack` (queued at retryAt, or dead letter once out of attempts). */
  status: 'acked' | 'claimed' | 'dead_letter' | 'nack';
  fields?: Record<string, unknown>;
  result?: RunDispatchResult;
  leaseMs?: number;
  retryAt?: number;
}

export function settleCall(proof: ClaimProof, change: Settle, wake: string): FunctionCall {
  let fields = '';
  for (const [name, value] of Object.entries(change.fields ?? {})) fields += `,${json(name)}:${json(value)}`;
  const result = change.result;
  if (result !== undefined) {
    fields += `,"dispatchInstanceId":${json(result.dispatchInstanceId)},"runStatus":${json(result.status)}`;
    if (result.termination !== undefined) fields += `,"termination":${json(result.termination)}`;
    if (result.response !== undefined) fields += `,"runResponse":${json(result.response)}`;
    if (result.error !== undefined) fields += `,"runError":${json(result.error)}`;
  }
  return {
    fn: 'mb_settle',
    args: [
      wake,
      key(proof.dispatchId),
      json(proof.claimToken),
      change.status,
      fields,
      result === undefined ? [] : ['termination', 'runResponse', 'runError'],
      result !== undefined,
      change.leaseMs ?? null,
      change.retryAt ?? null,
      result === undefined ? null : json(result.runId),
    ],
  };
}

export function interruptCall(threadId: string): FunctionCall {
  return { fn: 'mb_interrupt', args: [key(threadId)] };
}

interface Refusal {
  code: string;
  reason?: string;
  holder?: RunDispatch;
  runId?: string;
}

/** What a call answered: its JSON, or the AwakenError of a refusal. */
function replyOf(reply: string, refused: (refusal: Refusal) => AwakenError): unknown {
  if (!reply.startsWith('!')) return JSON.parse(reply);
  const refusal = JSON.parse(reply.slice(1)) as Refusal;
  throw refused(refusal);
}

function leaseRange(leaseMs: number | undefined): AwakenError {
  return new AwakenError('validation_failed', `leaseMs ${leaseMs} puts the lease deadline out of range`);
}

export function enqueueReply(
  reply: string,
  parsed: ParsedEnqueue,
  dispatchId: string,
  leaseMs?: number,
): RunDispatch {
  const answered = replyOf(reply, (refusal) => {
    if (refusal.code === 'lease_range') return leaseRange(leaseMs);
    if (refusal.code === 'dedupe_conflict') {
      const holder = runDispatchSchema.parse(refusal.holder).dispatchId;
      return new AwakenError(
        'dedupe_conflict',
        `thread ${parsed.threadId} already has live dispatch ${holder} with dedupe key ${parsed.dedupeKey}`,
        { details: { threadId: parsed.threadId, dedupeKey: parsed.dedupeKey, dispatchId: holder } },
      );
    }
    return conflict(`dispatch ${dispatchId} already exists`);
  });
  return asDispatch(answered);
}

export function claimReply(reply: string, leaseMs: number): RunDispatch[] {
  const answered = replyOf(reply, () => leaseRange(leaseMs)) as unknown[];
  return answered.map((doc) => asDispatch(doc));
}

export function settleReply(reply: string, proof: ClaimProof, change: Settle): RunDispatch {
  const answered = replyOf(reply, (refusal) => {
    if (refusal.code === 'not_found') return notFound('dispatch', proof.dispatchId);
    if (refusal.code === 'stale_claim') return staleClaim(proof, refusal.reason ?? '');
    if (refusal.code === 'lease_range') return leaseRange(change.leaseMs);
    return new AwakenError(
      'validation_failed',
      `run result is for run ${change.result?.runId}, but dispatch ${proof.dispatchId} carries run ${refusal.runId}`,
    );
  });
  return asDispatch(answered);
}

export function interruptReply(reply: string): MailboxInterrupt {
  const answered = replyOf(
    reply,
    (refusal) => new AwakenError('store_failure', `postgres: ${refusal.code}`),
  ) as {
    newDispatchEpoch: number;
    activeDispatch?: unknown;
    supersededCount: number;
  };
  return {
    newDispatchEpoch: answered.newDispatchEpoch,
    ...(answered.activeDispatch === undefined ? {} : { activeDispatch: asDispatch(answered.activeDispatch) }),
    supersededCount: answered.supersededCount,
  };
}

/**
 * For a message of several calls (one transaction): locks the mailbox rows of every thread the calls
 * will lock (an enqueue's or an interrupt's thread, a claimant write's dispatch's thread) at once, in
 * thread order, before any call runs, so two messages never wait for each other in opposite orders.
 * A claim needs nothing here: it skips locked threads. A thread without a row yet is created by its
 * call (and locked then).
 */
export function lockThreadsFirst(s: string): (calls: readonly FunctionCall[]) => string | undefined {
  return (calls) => {
    const threads: string[] = [];
    const dispatches: string[] = [];
    for (const call of calls) {
      if (call.fn === 'mb_enqueue') threads.push(call.args[2] as string);
      else if (call.fn === 'mb_interrupt') threads.push(call.args[0] as string);
      else if (call.fn === 'mb_settle') dispatches.push(call.args[1] as string);
    }
    if (threads.length + dispatches.length < 2) return undefined;
    return `SELECT count(*) FROM (SELECT 1 FROM ${s}.mailbox_threads WHERE thread_id = ANY (${sqlLiteral(threads)} || ARRAY(
      SELECT thread_id FROM ${s}.dispatches WHERE dispatch_id = ANY (${sqlLiteral(dispatches)})))
      ORDER BY thread_id FOR UPDATE) locked`;
  };
}
