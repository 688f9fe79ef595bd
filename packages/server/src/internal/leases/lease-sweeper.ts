import { endDeadLetteredRun } from '../dispatch/end-dead-lettered-run';
import { LEASE_EXPIRED_REASON, publicDispatchError } from '../dispatch/public-reason';
import type { ServiceContext } from '../service/service-context';

export interface LeaseSweeper {
  /** One sweep now (recovery at start); resolves with how many dispatches it reclaimed. */
  sweep(): Promise<number>;
  stop(): void;
}

/**
 * Reclaims dispatches whose lease expired (their process died or hung): the store counts the
 * attempt and requeues them, so the run continues from its last checkpoint in whichever process
 * claims it next. A dispatch that used up its attempts is dead-lettered by the store; its run is
 * then ended with the reason, so the record says why (or, when the thread has more work queued, by
 * the thread's next run before it starts). A superseded dispatch's run is likewise ended by the run
 * that interrupted it. Safe with any number of sweepers.
 */
export function startLeaseSweeper(context: ServiceContext): LeaseSweeper {
  let sweeping: Promise<number> | undefined;

  async function sweepOnce(): Promise<number> {
    let total = 0;
    while (!context.stopping.aborted) {
      const reclaimed = await context.stores.mailbox.reclaimExpiredLeases({ limit: 100 });
      total += reclaimed.length;
      for (const dispatch of reclaimed) {
        if (dispatch.status !== 'dead_letter') continue;
        // with more work queued on the thread, its next run ends this one under the thread's claim
        const busy = await context.stores.mailbox.listDispatches(dispatch.threadId, {
          status: ['queued', 'claimed'],
          limit: 1,
        });
        if (busy.items.length > 0) continue;
        const reason = `dead-lettered after ${dispatch.attemptCount} attempts (the process executing it stopped each time); last error: ${dispatch.lastError === undefined ? LEASE_EXPIRED_REASON : publicDispatchError(dispatch.lastError)}`;
        await endDeadLetteredRun(context, dispatch.runId, reason);
      }
      if (reclaimed.length < 100) break;
    }
    return total;
  }

  const sweep = () => {
    sweeping ??= sweepOnce().finally(() => {
      sweeping = undefined;
    });
    return sweeping;
  };

  const timer = setInterval(() => {
    sweep().catch((error) => context.report(error, 'sweeping expired leases'));
  }, context.config.sweepIntervalMs);
  timer.unref?.();
  return {
    sweep,
    stop: () => clearInterval(timer),
  };
}
