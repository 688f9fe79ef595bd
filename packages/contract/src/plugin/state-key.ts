import type { z } from 'zod';

/**
 * A typed slot of plugin state. `scope: 'run'` lives with one run, `'thread'` carries over to later
 * runs of the same thread. `persistent: true` keys are written with every checkpoint and restored on
 * resume (they must be JSON-serialisable); non-persistent keys live only in memory.
 */
export interface StateKey<T> {
  name: string;
  scope: 'run' | 'thread';
  persistent: boolean;
  initial: () => T;
  /** Validates a restored value; an invalid stored value falls back to `initial()`. */
  schema?: z.ZodType<T>;
}

export function defineStateKey<T>(key: StateKey<T>): StateKey<T> {
  return key;
}

/**
 * Read/write access to plugin state from a hook, limited to the keys the hook's plugin declares in
 * `stateKeys` (another key throws `invalid_config`).
 */
export interface PluginStateAccess {
  get<T>(key: StateKey<T>): T;
  set<T>(key: StateKey<T>, value: T): void;
  update<T>(key: StateKey<T>, update: (current: T) => T): T;
}

/** Storage key under which a state key's value is persisted. */
export function stateKeyStorageName(key: StateKey<unknown>): string {
  return `${key.scope}:${key.name}`;
}
