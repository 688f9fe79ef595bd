import {
  type HookContext,
  type Phase,
  type PluginHooks,
  type PluginStateAccess,
  type StateKey,
  stateKeyStorageName,
} from '@awaken/contract';
import type { RunSession } from './run-session';

function storeFor(session: RunSession, key: StateKey<unknown>): Map<string, unknown> {
  return key.scope === 'run' ? session.runState : session.threadState;
}

function restore<T>(key: StateKey<T>, stored: unknown): T {
  if (stored === undefined) return key.initial();
  if (!key.schema) return stored as T;
  const parsed = key.schema.safeParse(stored);
  return parsed.success ? parsed.data : key.initial();
}

/** Every persistent state key the agent's plugins declare. */
function persistentKeys(session: RunSession): StateKey<unknown>[] {
  return (session.agent.definition.plugins ?? []).flatMap((plugin) =>
    (plugin.stateKeys ?? []).filter((key) => key.persistent),
  );
}

/** Plugin state access for one run: run keys live with the run, thread keys with the thread. */
export function createStateAccess(session: RunSession): PluginStateAccess {
  const get = <T>(key: StateKey<T>): T => {
    const store = storeFor(session, key as StateKey<unknown>);
    const name = stateKeyStorageName(key as StateKey<unknown>);
    if (!store.has(name)) store.set(name, key.initial());
    return store.get(name) as T;
  };
  const set = <T>(key: StateKey<T>, value: T): void => {
    storeFor(session, key as StateKey<unknown>).set(stateKeyStorageName(key as StateKey<unknown>), value);
  };
  return {
    get,
    set,
    update(key, update) {
      const next = update(get(key));
      set(key, next);
      return next;
    },
  };
}

/** Loads persistent plugin keys from the run record and the stored thread state. */
export function restorePluginState(session: RunSession): void {
  for (const key of persistentKeys(session)) {
    const name = stateKeyStorageName(key);
    const source = key.scope === 'run' ? session.record.state : session.storedThreadState;
    if (name in source) storeFor(session, key).set(name, restore(key, source[name]));
  }
}

/** Persistent run-scoped values, keyed by storage name, for RunRecord.state. */
export function persistentRunState(session: RunSession): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const key of persistentKeys(session)) {
    const name = stateKeyStorageName(key);
    if (key.scope === 'run' && session.runState.has(name)) values[name] = session.runState.get(name);
  }
  return values;
}

/** The thread state map to store with a checkpoint, or undefined when no thread key is persistent. */
export function persistentThreadState(session: RunSession): Record<string, unknown> | undefined {
  const keys = persistentKeys(session).filter((key) => key.scope === 'thread');
  if (keys.length === 0) return undefined;
  const values: Record<string, unknown> = { ...session.storedThreadState };
  for (const key of keys) {
    const name = stateKeyStorageName(key);
    if (session.threadState.has(name)) values[name] = session.threadState.get(name);
  }
  return values;
}

export function baseContext(session: RunSession, phase: Phase): HookContext {
  return {
    phase,
    runId: session.runId,
    threadId: session.threadId,
    agentId: session.agent.id,
    step: session.record.steps,
    state: createStateAccess(session),
    signal: session.signal,
    messages: session.messages,
  };
}

type HookName = Exclude<keyof PluginHooks, 'toolGate'>;

/** Runs one hook of every plugin, in plugin order. A throwing hook ends the run with `error`. */
export async function runHooks<K extends HookName>(
  session: RunSession,
  name: K,
  context: Parameters<NonNullable<PluginHooks[K]>>[0],
): Promise<void> {
  for (const plugin of session.agent.definition.plugins ?? []) {
    const hook = plugin.hooks[name] as ((context: unknown) => unknown) | undefined;
    if (hook) await hook.call(plugin.hooks, context);
  }
}
