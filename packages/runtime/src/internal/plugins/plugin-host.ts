import {
  AwakenError,
  type HookContext,
  type Phase,
  type Plugin,
  type PluginHooks,
  type PluginStateAccess,
  type StateKey,
  stateKeyStorageName,
} from '@awaken/contract';
import type { RunSession } from '../session/run-session';

function storeFor(session: RunSession, key: StateKey<unknown>): Map<string, unknown> {
  return key.scope === 'run' ? session.run.plugins.run : session.run.plugins.thread;
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

const declaredByPlugin = new WeakMap<Plugin, Set<string>>();

function declaredKeys(plugin: Plugin): Set<string> {
  let names = declaredByPlugin.get(plugin);
  if (!names) {
    names = new Set((plugin.stateKeys ?? []).map((key) => stateKeyStorageName(key)));
    declaredByPlugin.set(plugin, names);
  }
  return names;
}

/**
 * Plugin state access for one plugin of a run: run keys live with the run, thread keys with the
 * thread. Only the keys the plugin declares in `stateKeys` are reachable: an undeclared key would be
 * kept in memory but never checkpointed, so hot and cold resume would diverge; it is refused with
 * `invalid_config` naming the key and the plugin.
 */
export function createStateAccess(session: RunSession, plugin: Plugin): PluginStateAccess {
  const check = (key: StateKey<unknown>): string => {
    const name = stateKeyStorageName(key);
    if (!declaredKeys(plugin).has(name)) {
      throw new AwakenError(
        'invalid_config',
        `plugin "${plugin.id}" used state key "${name}" without declaring it in its stateKeys`,
        { details: { pluginId: plugin.id, key: name } },
      );
    }
    return name;
  };
  const get = <T>(key: StateKey<T>): T => {
    const name = check(key as StateKey<unknown>);
    const store = storeFor(session, key as StateKey<unknown>);
    if (!store.has(name)) store.set(name, key.initial());
    return store.get(name) as T;
  };
  const set = <T>(key: StateKey<T>, value: T): void => {
    const name = check(key as StateKey<unknown>);
    storeFor(session, key as StateKey<unknown>).set(name, value);
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

/** The state of a context not yet given to a plugin: every access is a runtime bug. */
const UNBOUND_STATE: PluginStateAccess = {
  get: () => {
    throw new AwakenError('internal', 'plugin state accessed outside a plugin hook');
  },
  set: () => {
    throw new AwakenError('internal', 'plugin state accessed outside a plugin hook');
  },
  update: () => {
    throw new AwakenError('internal', 'plugin state accessed outside a plugin hook');
  },
};

/** The context one plugin's hook receives: the shared context with that plugin's state access. */
export function contextFor<C extends HookContext>(session: RunSession, plugin: Plugin, context: C): C {
  return { ...context, state: createStateAccess(session, plugin) };
}

/**
 * Gives the session's thread state back to the runtime's thread memory once its activation ended:
 * the persistent thread keys are in the store (the next session restores them), so only
 * non-persistent ones may be kept in memory.
 */
export function releaseThreadState(session: RunSession): void {
  const stored = persistentKeys(session)
    .filter((key) => key.scope === 'thread')
    .map((key) => stateKeyStorageName(key));
  session.services.threadMemory.release(session.threadId, stored);
}

/**
 * Loads persistent plugin keys from the run record and the stored thread state (with `only`, the
 * keys of that scope).
 */
export function restorePluginState(session: RunSession, only?: StateKey<unknown>['scope']): void {
  for (const key of persistentKeys(session)) {
    if (only !== undefined && key.scope !== only) continue;
    const name = stateKeyStorageName(key);
    const source = key.scope === 'run' ? session.run.record.state : session.run.plugins.storedThread;
    if (name in source) storeFor(session, key).set(name, restore(key, source[name]));
  }
}

/**
 * The persistent plugin state a checkpoint stores: run-scoped values for RunRecord.state, and the
 * thread state map (undefined when no thread key is persistent). Keyed by storage name.
 */
export function persistentPluginState(session: RunSession): {
  run: Record<string, unknown>;
  thread: Record<string, unknown> | undefined;
} {
  return { run: persistentRunState(session), thread: persistentThreadState(session) };
}

function persistentRunState(session: RunSession): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const key of persistentKeys(session)) {
    const name = stateKeyStorageName(key);
    if (key.scope === 'run' && session.run.plugins.run.has(name))
      values[name] = session.run.plugins.run.get(name);
  }
  return values;
}

function persistentThreadState(session: RunSession): Record<string, unknown> | undefined {
  const keys = persistentKeys(session).filter((key) => key.scope === 'thread');
  if (keys.length === 0) return undefined;
  const values: Record<string, unknown> = { ...session.run.plugins.storedThread };
  for (const key of keys) {
    const name = stateKeyStorageName(key);
    if (session.run.plugins.thread.has(name)) values[name] = session.run.plugins.thread.get(name);
  }
  return values;
}

export function baseContext(session: RunSession, phase: Phase): HookContext {
  return {
    phase,
    runId: session.runId,
    threadId: session.threadId,
    agentId: session.agent.id,
    step: session.run.record.steps,
    state: UNBOUND_STATE,
    signal: session.activation.signal,
    messages: session.run.messages,
    runContext: session.run.context,
  };
}

type HookName = Exclude<keyof PluginHooks, 'toolGate'>;

const PHASE_OF = {
  runStart: 'RunStart',
  stepStart: 'StepStart',
  beforeInference: 'BeforeInference',
  afterInference: 'AfterInference',
  beforeToolExecute: 'BeforeToolExecute',
  afterToolExecute: 'AfterToolExecute',
  stepEnd: 'StepEnd',
  runEnd: 'RunEnd',
} as const satisfies Record<HookName, Phase>;

/** What a hook's context adds to the base context (its own fields; `step` for a call's step). */
type HookFields<K extends HookName> = Omit<Parameters<NonNullable<PluginHooks[K]>>[0], keyof HookContext> &
  Partial<Pick<HookContext, 'step'>>;

/**
 * Runs one hook of every plugin, in plugin order, with the base context of its phase plus `fields`.
 * A throwing hook ends the run with `error`.
 */
export async function runHooks<K extends HookName>(
  session: RunSession,
  name: K,
  fields: HookFields<K>,
): Promise<void> {
  const plugins = session.agent.definition.plugins;
  // most agents have no hook for most phases: no context is built for nobody
  if (plugins === undefined || !plugins.some((plugin) => plugin.hooks[name] !== undefined)) return;
  const context = { ...baseContext(session, PHASE_OF[name]), ...fields };
  for (const plugin of plugins) {
    const hook = plugin.hooks[name] as ((context: unknown) => unknown) | undefined;
    if (hook) await hook.call(plugin.hooks, contextFor(session, plugin, context));
  }
}
