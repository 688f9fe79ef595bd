import { AwakenError, type RunLease, type RunLeaseProof } from '@awaken/contract';

/** A run row's ownership columns: its current fence and, while held, the lease. */
export interface RunOwnership {
  fence: number;
  owner: string | null;
  leaseUntil: number | null;
}

export function staleRunClaim(runId: string, why: string): AwakenError {
  return new AwakenError('stale_claim', `run ${runId}: ${why}`, { details: { runId, reason: why } });
}

/** `run_busy` (retryable until the lease ends) while another lease of the run is live at `now`. */
export function checkFree(runId: string, ownership: RunOwnership, now: number): void {
  if (ownership.owner !== null && ownership.leaseUntil !== null && now <= ownership.leaseUntil) {
    throw new AwakenError(
      'run_busy',
      `run ${runId} is held by ${ownership.owner} until ${ownership.leaseUntil}`,
      {
        retryable: true,
        retryAfterMs: ownership.leaseUntil - now + 1,
        details: { runId, owner: ownership.owner, leaseUntil: ownership.leaseUntil },
      },
    );
  }
}

/** True when `proof` still holds the run: its fence is the current one and it was not released. */
export function holds(ownership: RunOwnership, proof: RunLeaseProof): boolean {
  return ownership.fence === proof.fence && ownership.owner === proof.owner;
}

export function leaseOf(runId: string, owner: string, fence: number, leaseUntil: number): RunLease {
  return { runId, owner, fence, leaseUntil };
}
