import { AwakenError, trustedViewOf } from '@awaken/contract';
import type { AgentRuntimeOptions, RuntimeStores } from '../../types';

/** The methods the runtime calls on each store it takes. */
const REQUIRED_METHODS = {
  threadRuns: [
    'createThread',
    'getThread',
    'getThreadState',
    'readMessages',
    'createRun',
    'getRun',
    'commitCheckpoint',
    'acquireRun',
    'renewRun',
    'releaseRun',
  ],
  eventLog: ['append', 'read', 'finish', 'isFinished', 'raiseFence'],
  inbox: ['put', 'peek', 'remove', 'subscribe'],
} as const;

function invalid(message: string): AwakenError {
  return new AwakenError('invalid_config', message);
}

/**
 * Checks the runtime's stores when it is created, so a missing or wrong store is `invalid_config`
 * naming it, not a TypeError on the first run, and returns the stores the runtime calls: each
 * store's trusted view where it offers one (see `offerTrustedView` in the contract), else the store
 * as given. Through a trusted view the runtime's own records, events and ids skip the store's input
 * parse and its extra copies: the runtime built and checked them, and checks a caller's input at its
 * own entry points. Operations carrying a caller's values (createThread, createRun, put, …) still
 * parse. A wrapper around a store offers no view, so it sees every call as before.
 */
export function resolveStores(options: AgentRuntimeOptions): RuntimeStores {
  const stores = (options as { stores?: unknown }).stores;
  if (typeof stores !== 'object' || stores === null) {
    const legacy = 'store' in options ? ' (the `store` option is now `stores: { threadRuns }`)' : '';
    throw invalid(
      `createAgentRuntime needs \`stores: { threadRuns, eventLog?, inbox? }\`, e.g. createMemoryStores()${legacy}`,
    );
  }
  const bundle = stores as Record<string, unknown>;
  for (const [name, methods] of Object.entries(REQUIRED_METHODS)) {
    const store = bundle[name];
    if (store === undefined && name !== 'threadRuns') continue;
    if (typeof store !== 'object' || store === null) {
      throw invalid(`stores.${name} is required (a ThreadRunStore, e.g. createMemoryStores().threadRuns)`);
    }
    const missing = methods.filter(
      (method) => typeof (store as Record<string, unknown>)[method] !== 'function',
    );
    if (missing.length > 0) throw invalid(`stores.${name} is missing ${missing.join(', ')}`);
  }
  const given = stores as RuntimeStores;
  return {
    threadRuns: trustedViewOf(given.threadRuns),
    ...(given.eventLog ? { eventLog: trustedViewOf(given.eventLog) } : {}),
    ...(given.inbox ? { inbox: trustedViewOf(given.inbox) } : {}),
    ...(given.mailbox ? { mailbox: given.mailbox } : {}),
  };
}
