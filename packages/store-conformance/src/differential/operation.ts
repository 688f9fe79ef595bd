import { assertNever } from '@awaken/contract';
import fc from 'fast-check';
import type { BackendEnv } from './backend-env';
import type { DifferentialStores } from './harness';

/** One generated step of a sequence, run once against each backend. */
export interface Operation {
  /** What it does, as a counterexample shows it. */
  readonly description: string;
  /** Moves the shared clock forward by this many milliseconds instead of calling a store. */
  readonly advanceMs?: number;
  run(stores: DifferentialStores, env: BackendEnv): Promise<unknown>;
}

function show(value: unknown): string {
  return fc.stringify(value);
}

/** An operation named `name` with `args` (shown in counterexamples) run by `run`. */
export function operation(
  name: string,
  args: unknown,
  run: (stores: DifferentialStores, env: BackendEnv) => Promise<unknown>,
): Operation {
  const description = `${name}(${show(args)})`;
  return {
    description,
    run,
    [fc.toStringMethod]: () => description,
  } as Operation;
}

/** The clock step. */
export function advance(ms: number): Operation {
  const description = `advance(${ms})`;
  return {
    description,
    advanceMs: ms,
    run: async () => undefined,
    [fc.toStringMethod]: () => description,
  } as Operation;
}

/**
 * A reference to a dispatch: one of those seen so far (0 = the latest), one of those that were
 * claimed (0 = the latest claimed; any seen when none was), a pool id, or any value.
 */
export type DispatchRef = { known: number } | { claimed: number } | { id: unknown };

export function resolveDispatch(env: BackendEnv, ref: DispatchRef): unknown {
  if ('id' in ref) return ref.id;
  const claimed = [...env.tokens.keys()];
  const candidates = 'claimed' in ref && claimed.length > 0 ? claimed : env.dispatchIds;
  const index = 'claimed' in ref ? ref.claimed : ref.known;
  return candidates.length === 0 ? 'never-enqueued' : candidates.at(-1 - (index % candidates.length));
}

/** Which claim token a claimant presents: the dispatch's latest, an earlier one, or any value. */
export type TokenRef = 'latest' | 'earlier' | { token: unknown };

export function resolveToken(env: BackendEnv, dispatchId: unknown, ref: TokenRef): unknown {
  if (typeof ref === 'object') return ref.token;
  const tokens = typeof dispatchId === 'string' ? (env.tokens.get(dispatchId) ?? []) : [];
  const token = ref === 'latest' ? tokens.at(-1) : tokens.at(-2);
  return token ?? 'token-never-handed-out';
}

/** Which run fence a writer presents: the run's latest, none (0), one behind or ahead, or any value. */
export type FenceRef = 'latest' | 'none' | 'behind' | 'ahead' | { fence: unknown };

export function resolveFence(env: BackendEnv, runId: unknown, ref: FenceRef): unknown {
  if (typeof ref === 'object') return ref.fence;
  const latest = env.fenceOf(runId);
  switch (ref) {
    case 'latest':
      return latest;
    case 'none':
      return undefined;
    case 'behind':
      return Math.max(0, latest - 1);
    case 'ahead':
      return latest + 1;
    default:
      return assertNever(ref, 'fence reference');
  }
}
