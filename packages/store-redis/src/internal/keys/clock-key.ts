/**
 * The test clock of a store (tests only): a store made with `testClock` passes this key as KEYS[1]
 * of every script, and a millisecond value a test harness stores there freezes the scripts' clock
 * (`now_ms` in `lua/prelude.ts`).
 */
export function clockKey(prefix: string): string {
  return `${prefix}clock`;
}
