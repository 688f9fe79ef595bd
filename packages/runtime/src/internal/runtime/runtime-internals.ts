import type { AgentRuntime } from '../../types';

/** What a runtime keeps in memory per run and per thread, as tests inspect it (never exported). */
export interface RuntimeInternals {
  /** Runs executing in this runtime. */
  readonly liveRuns: () => number;
  /** Threads with in-memory plugin state. */
  readonly threadMemory: () => number;
}

const internals = new WeakMap<AgentRuntime, RuntimeInternals>();

export function registerInternals(runtime: AgentRuntime, parts: RuntimeInternals): void {
  internals.set(runtime, parts);
}

/** The in-memory bookkeeping of a runtime made by `createAgentRuntime` (a test seam). */
export function inspectRuntime(runtime: AgentRuntime): RuntimeInternals {
  const found = internals.get(runtime);
  if (!found) throw new Error('not a runtime made by createAgentRuntime');
  return found;
}
