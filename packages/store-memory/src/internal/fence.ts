import { AwakenError, type ClaimProof } from '@awaken/contract';
import { notFound } from './errors';
import type { DispatchEntry, MailboxState } from './mailbox-state';

function staleClaim(proof: ClaimProof, why: string): AwakenError {
  return new AwakenError('stale_claim', `dispatch ${proof.dispatchId}: ${why}`, {
    details: { dispatchId: proof.dispatchId, reason: why },
  });
}

/**
 * The entry a claimant may write to, or `stale_claim`: the dispatch must be claimed under this very
 * token, its lease held (`now <= leaseUntil`) and its epoch the thread's current one.
 */
export function fence(state: MailboxState, proof: ClaimProof, now: number): DispatchEntry {
  const entry = state.entries.get(proof.dispatchId);
  if (entry === undefined) throw notFound('dispatch', proof.dispatchId);
  const { dispatch } = entry;
  if (dispatch.status !== 'claimed') throw staleClaim(proof, `it is ${dispatch.status}, not claimed`);
  if (dispatch.claimToken !== proof.claimToken) throw staleClaim(proof, 'the claim token is not current');
  if (dispatch.leaseUntil === undefined || now > dispatch.leaseUntil) {
    throw staleClaim(proof, 'the lease expired');
  }
  if (dispatch.dispatchEpoch !== state.epochOf(dispatch.threadId)) {
    throw staleClaim(proof, 'the thread was interrupted (epoch moved on)');
  }
  return entry;
}
