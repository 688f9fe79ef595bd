import { AwakenError } from '@awaken/contract';
import type { BackendEnv } from './backend-env';

/** What one backend answered to one operation: a value (canonical), an error code, or a crash. */
export type Outcome = { ok: unknown } | { error: string } | { crash: string };

/** Error codes that are never an acceptable answer: a store bug or an infrastructure failure. */
const NEVER_EXPECTED = new Set(['store_failure', 'internal']);

/** Runs `run` on one backend and records its outcome, learning the ids and tokens it handed out. */
export async function outcomeOf(run: () => Promise<unknown>, env: BackendEnv): Promise<Outcome> {
  try {
    const value = await run();
    env.learn(value);
    return { ok: env.canonical(value) };
  } catch (error) {
    if (!AwakenError.isInstance(error)) return { crash: String(error) };
    if (NEVER_EXPECTED.has(error.code)) return { crash: `${error.code}: ${error.message}` };
    return { error: error.code };
  }
}

export function isCrash(outcome: Outcome): outcome is { crash: string } {
  return 'crash' in outcome;
}
