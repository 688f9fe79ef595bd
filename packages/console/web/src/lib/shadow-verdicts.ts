import type { RunEvent } from './timeline';

/** Where the permission plugin keeps a run's shadow verdicts in its state (the key's storage name). */
export const SHADOW_VERDICTS_STATE = 'run:permission.shadowVerdicts';

/** A verdict of the permission rules in shadow mode that was not enforced, as the run records it. */
export interface ShadowVerdict {
  call: string;
  toolCallId: string;
  toolName: string;
  step: number;
  behavior: string;
  rule?: string;
  reason: string;
  enforced: string;
  at: number;
}

/**
 * The run's shadow verdicts, oldest first: the list of the latest `state_snapshot` that carries the
 * key (the run's state as of that snapshot; each snapshot holds every verdict kept so far).
 */
export function shadowVerdictsOf(events: readonly RunEvent[]): ShadowVerdict[] {
  for (let index = events.length - 1; index >= 0; index -= 1) {
    const event = events[index];
    if (event?.type !== 'state_snapshot') continue;
    const list = event.state?.[SHADOW_VERDICTS_STATE];
    if (Array.isArray(list)) return list as ShadowVerdict[];
  }
  return [];
}

/** `would have denied`, `would have asked`, `would have allowed`. */
export function wouldHave(behavior: string): string {
  const verb = { deny: 'denied', ask: 'asked', allow: 'allowed' }[behavior] ?? behavior;
  return `would have ${verb}`;
}
