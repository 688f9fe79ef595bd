import { z } from 'zod';

/** The longest run lease a store grants: one day. */
export const MAX_RUN_LEASE_MS = 86_400_000;

/** What `acquireRun` takes: who asks (for diagnostics) and for how long, in store-clock milliseconds. */
export const acquireRunInputSchema = z.object({
  owner: z.string().min(1),
  leaseMs: z.number().int().min(1).max(MAX_RUN_LEASE_MS),
});
export type AcquireRunInput = z.infer<typeof acquireRunInputSchema>;

/**
 * Proof of holding a run. `fence` grows by one with every acquisition of the run, so a holder whose
 * lease was taken over carries a fence lower than the current one and every write it makes is
 * refused (`stale_claim`).
 */
export const runLeaseProofSchema = z.object({
  runId: z.string().min(1),
  owner: z.string().min(1),
  fence: z.number().int().positive(),
});
export type RunLeaseProof = z.infer<typeof runLeaseProofSchema>;

/** A granted run lease: the proof plus the store-clock time until which no one else can acquire it. */
export const runLeaseSchema = runLeaseProofSchema.extend({
  leaseUntil: z.number().int().nonnegative(),
});
export type RunLease = z.infer<typeof runLeaseSchema>;

/** A writer's fence: 0 (never acquired) or the fence of a lease. */
export const fenceSchema = z.number().int().nonnegative();
