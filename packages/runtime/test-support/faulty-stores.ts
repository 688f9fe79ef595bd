import { AwakenError, type RunControlInbox, type RunEventLog, type ThreadRunStore } from '@awaken/contract';

/** Which methods of each store write; every other method only reads. */
const WRITES = {
  store: [
    'createThread',
    'deleteThread',
    'updateThreadMetadata',
    'appendMessages',
    'createRun',
    'commitCheckpoint',
    'acquireRun',
    'renewRun',
    'releaseRun',
  ],
  eventLog: ['append', 'finish', 'raiseFence'],
  inbox: ['put', 'remove'],
} as const;

/**
 * Counts the writes of a trial and fails the `failAt`-th one and the `burst - 1` after it (a store
 * outage: nothing is written). A burst of 3 outlasts the retries of the terminal checkpoint.
 */
export interface FaultPlan {
  failAt: number;
  burst: number;
  writes: number;
  /** `store.method` of every write, in order. */
  log: string[];
}

export function faultPlan(failAt = Number.POSITIVE_INFINITY, burst = 1): FaultPlan {
  return { failAt, burst, writes: 0, log: [] };
}

function faulty<T extends object>(target: T, kind: keyof typeof WRITES, plan: FaultPlan): T {
  const writes: readonly string[] = WRITES[kind];
  return new Proxy(target, {
    get(object, key, receiver) {
      const value = Reflect.get(object, key, receiver);
      if (typeof value !== 'function' || !writes.includes(String(key))) return value;
      return (...args: unknown[]) => {
        plan.writes += 1;
        plan.log.push(`${kind}.${String(key)}`);
        if (plan.writes >= plan.failAt && plan.writes < plan.failAt + plan.burst) {
          return Promise.reject(
            new AwakenError('store_failure', `injected failure of write ${plan.failAt}`, { retryable: true }),
          );
        }
        return value.apply(object, args);
      };
    },
  });
}

/** The three stores a runtime writes to, failing the plan's `failAt`-th write across all of them. */
export function faultyStores(
  stores: { threadRuns: ThreadRunStore; eventLog: RunEventLog; inbox: RunControlInbox },
  plan: FaultPlan,
) {
  return {
    threadRuns: faulty(stores.threadRuns, 'store', plan),
    eventLog: faulty(stores.eventLog, 'eventLog', plan),
    inbox: faulty(stores.inbox, 'inbox', plan),
  };
}
