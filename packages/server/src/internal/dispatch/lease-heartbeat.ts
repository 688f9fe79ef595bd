import { AwakenError } from '@awaken/contract';

export interface LeaseHeartbeat {
  /** True once a beat was refused (`stale_claim`): the claim is no longer ours. */
  readonly lost: boolean;
  stop(): void;
}

/**
 * Calls `beat` (extend the claim's lease, renew the run's) every `everyMs` while an activation
 * runs. A refused beat (`stale_claim` or `not_found`: the lease expired and was taken over, or the
 * thread was interrupted) stops the heartbeat and calls `onLost` once; other failures (a store blip)
 * are reported and retried on the next beat, while the lease may still be valid.
 */
export function startLeaseHeartbeat(input: {
  beat: () => Promise<unknown>;
  everyMs: number;
  onLost: (error: AwakenError) => void;
  onError: (error: unknown) => void;
}): LeaseHeartbeat {
  let lost = false;
  let stopped = false;
  let beating = false;
  const timer = setInterval(async () => {
    if (beating || stopped) return;
    beating = true;
    try {
      await input.beat();
    } catch (error) {
      if (stopped) return;
      if (AwakenError.hasCode(error, 'stale_claim') || AwakenError.hasCode(error, 'not_found')) {
        lost = true;
        stopped = true;
        clearInterval(timer);
        input.onLost(error);
      } else {
        input.onError(error);
      }
    } finally {
      beating = false;
    }
  }, input.everyMs);
  timer.unref?.();
  return {
    get lost() {
      return lost;
    },
    stop() {
      stopped = true;
      clearInterval(timer);
    },
  };
}
