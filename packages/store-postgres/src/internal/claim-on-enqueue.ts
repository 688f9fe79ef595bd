/** Who claims a dispatch as it is enqueued (`enqueueAndClaim`), and the start it records. */
export interface ClaimOnEnqueue {
  workerId: string;
  leaseMs: number;
  dispatchInstanceId?: string;
}
