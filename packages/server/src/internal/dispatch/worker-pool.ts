import { abortableDelay } from '../service/abortable-delay';
import type { ServiceContext } from '../service/service-context';
import { executeDispatch } from './execute-dispatch';

export interface WorkerPool {
  /** Settles when the claim loop has stopped (after the service's `stopping` signal). */
  readonly stopped: Promise<void>;
  /** Background activations executing now. */
  active(): number;
}

/**
 * Claims up to `concurrency` dispatches at a time and executes each. When nothing is claimable it
 * waits on the store's `waitForWork` (no polling) for at most `idleWaitMs`, so delayed retries
 * that fall due are picked up within that bound. The store hands out at most one claim per
 * thread, so a thread never has two runs executing anywhere.
 */
export function startWorkerPool(context: ServiceContext): WorkerPool {
  const { mailbox } = context.stores;
  const { concurrency, workerId, leaseMs, idleWaitMs } = context.config;
  const running = new Set<Promise<void>>();
  let slotFreed: (() => void) | undefined;
  let failures = 0;

  async function loop(): Promise<void> {
    while (!context.stopping.aborted) {
      const free = concurrency - running.size;
      if (free <= 0) {
        await new Promise<void>((resolve) => {
          slotFreed = resolve;
        });
        continue;
      }
      let claimed: Awaited<ReturnType<typeof mailbox.claim>>;
      try {
        claimed = await mailbox.claim({ workerId, limit: free, leaseMs });
        failures = 0;
      } catch (error) {
        failures += 1;
        context.report(error, 'claiming work');
        await abortableDelay(Math.min(idleWaitMs, 50 * 2 ** Math.min(failures, 6)), context.stopping);
        continue;
      }
      if (claimed.length === 0) {
        await mailbox.waitForWork({ timeoutMs: idleWaitMs, signal: context.stopping }).catch((error) => {
          context.report(error, 'waiting for work');
          return abortableDelay(idleWaitMs, context.stopping);
        });
        continue;
      }
      for (const dispatch of claimed) {
        const done = executeDispatch(context, dispatch).done.finally(() => {
          running.delete(done);
          slotFreed?.();
          slotFreed = undefined;
        });
        running.add(done);
      }
    }
  }

  context.stopping.addEventListener('abort', () => slotFreed?.(), { once: true });
  const stopped = concurrency === 0 ? Promise.resolve() : loop();
  return { stopped, active: () => running.size };
}
