/**
 * The small sets of ids the generated operations draw from, so they keep meeting each other: a
 * few threads (one whose id looks like another's key suffix, one with a NUL), runs, dispatches,
 * workers, dedupe keys, decisions and tool calls.
 */
const threads = ['t0', 't1', 't0:q', 'a\u0000b'] as const;
const runs = ['r0', 'r1', 'r0:meta'] as const;
const dispatches = ['d0', 'd1', 'd2', 'd3'] as const;
const workers = ['w0', 'w1'] as const;
const dedupeKeys = ['k0', 'k1'] as const;
const decisions = ['dec0', 'dec1', 'dec2'] as const;
const toolCalls = ['c0', 'c1'] as const;
const owners = ['o0', 'o1'] as const;

export const POOLS = {
  threads,
  runs,
  dispatches,
  workers,
  dedupeKeys,
  decisions,
  toolCalls,
  owners,
  /** Every pool id: these are their own canonical names. */
  all: new Set<string>([
    ...threads,
    ...runs,
    ...dispatches,
    ...workers,
    ...dedupeKeys,
    ...decisions,
    ...toolCalls,
    ...owners,
  ]),
};

/** Values no store operation accepts where a number, id or object is expected. */
export const ODD_VALUES: readonly unknown[] = [
  undefined,
  null,
  '',
  -1,
  0,
  -0,
  1.5,
  Number.NaN,
  Number.POSITIVE_INFINITY,
  1e30,
  2 ** 53,
  '3',
  true,
  {},
  [],
  '\uD800',
];
