import type { z } from 'zod';

/**
 * A typed slot of plugin state, identified by its scope and name (stored, and shown in
 * `state_snapshot`, as `run:<name>` / `thread:<name>`). A plugin reaches only the keys it declares in
 * its `stateKeys`; using any other key throws `invalid_config` naming the key and the plugin, so
 * nothing a plugin keeps is silently left out of a checkpoint.
 *
 * - `scope: 'run'` lives with one run; `'thread'` is shared by the runs of one thread and carries
 *   over to its later runs.
 * - `persistent: true` keys are written with every checkpoint, atomically with it (run keys in the
 *   run record, thread keys in the thread state), and restored when the run resumes, hot or cold, in
 *   any process. They must be JSON-serialisable: the stored value is its JSON form.
 * - Non-persistent keys live only in this runtime's memory: a run key for the activations of one
 *   handle (a `resumeRun` starts again from `initial()`), a thread key for as long as the runtime keeps
 *   the thread (its `threadMemoryLimit`). They never appear in `state_snapshot`.
 */
export interface StateKey<T> {
  /** The key's name; unique within its scope (two keys with the same scope and name are one slot). */
  name: string;
  scope: 'run' | 'thread';
  persistent: boolean;
  /** The value of a key that holds none yet (first read in a run, or in a thread with none kept). */
  initial: () => T;
  /** Validates a restored value; an invalid stored value falls back to `initial()`. */
  schema?: z.ZodType<T>;
}

/**
 * Declares a state key; returns it unchanged (typed). Declare keys once, at module level, and list
 * them in the plugin's `stateKeys`: a hook reads and writes them through `context.state`.
 */
export function defineStateKey<T>(key: StateKey<T>): StateKey<T> {
  return key;
}

/**
 * Read/write access to plugin state from a hook, limited to the keys the hook's plugin declares in
 * `stateKeys` (another key throws `invalid_config`).
 */
export interface PluginStateAccess {
  /** The key's current value (`initial()` when it holds none yet). */
  get<T>(key: StateKey<T>): T;
  /** Replaces the key's value; a persistent key's value is stored with the next checkpoint. */
  set<T>(key: StateKey<T>, value: T): void;
  /** Sets the key to `update(current)` and returns the new value. */
  update<T>(key: StateKey<T>, update: (current: T) => T): T;
}

/** Storage key under which a state key's value is persisted. */
export function stateKeyStorageName(key: StateKey<unknown>): string {
  return `${key.scope}:${key.name}`;
}
