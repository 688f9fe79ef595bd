import { AwakenError, type RunLease, type RunLeaseProof } from '@awaken/contract';

/** The ownership part of a stored run: its current fence and, while held, the lease. */
export interface RunOwnership {
  fence: number;
  owner?: string;
  leaseUntil?: number;
}

export function staleRunClaim(runId: string, why: string): AwakenError {
  return new AwakenError('stale_claim', `run ${runId}: ${why}`, { details: { runId, reason: why } });
}

/** A checkpoint's (validated) fence, default 0, must be the run's current one. */
export function checkFence(runId: string, ownership: RunOwnership, fence: number | undefined): void {
  const given = fence ?? 0;
  if (given !== ownership.fence) {
    throw staleRunClaim(
      runId,
      `the checkpoint carries fence ${given}, the run is at fence ${ownership.fence}`,
    );
  }
}

const leaseOf = (runId: string, ownership: RunOwnership): RunLease => ({
  runId,
  owner: ownership.owner ?? '',
  fence: ownership.fence,
  leaseUntil: ownership.leaseUntil ?? 0,
});

/** Grants the next fence unless another lease is live; mutates `ownership` only on success. */
export function acquire(
  runId: string,
  ownership: RunOwnership,
  input: { owner: string; leaseMs: number },
  now: number,
): RunLease {
  if (ownership.owner !== undefined && ownership.leaseUntil !== undefined && now <= ownership.leaseUntil) {
    const retryAfterMs = ownership.leaseUntil - now + 1;
    throw new AwakenError(
      'run_busy',
      `run ${runId} is held by ${ownership.owner} until ${ownership.leaseUntil}`,
      {
        retryable: true,
        retryAfterMs,
        details: { runId, owner: ownership.owner, leaseUntil: ownership.leaseUntil },
      },
    );
  }
  ownership.fence += 1;
  ownership.owner = input.owner;
  ownership.leaseUntil = now + input.leaseMs;
  return leaseOf(runId, ownership);
}

function requireHeld(ownership: RunOwnership, proof: RunLeaseProof): boolean {
  return ownership.fence === proof.fence && ownership.owner === proof.owner;
}

export function renew(
  ownership: RunOwnership,
  input: RunLeaseProof & { leaseMs: number },
  now: number,
): RunLease {
  if (!requireHeld(ownership, input)) {
    throw staleRunClaim(
      input.runId,
      `fence ${input.fence} of ${input.owner} no longer holds it (fence ${ownership.fence})`,
    );
  }
  ownership.leaseUntil = now + input.leaseMs;
  return leaseOf(input.runId, ownership);
}

export function release(ownership: RunOwnership, proof: RunLeaseProof): boolean {
  if (!requireHeld(ownership, proof)) return false;
  ownership.owner = undefined;
  ownership.leaseUntil = undefined;
  return true;
}
