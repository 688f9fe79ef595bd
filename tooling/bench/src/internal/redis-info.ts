import type { Redis } from 'ioredis';

export interface CommandTotals {
  /** Microseconds Redis spent in client-issued commands (a script's time includes its inner commands). */
  usec: number;
  /** Client-issued commands (a script call counts once). */
  calls: number;
  /** Commands run inside scripts. */
  inner: number;
  /** `calls` and `usec` of every command by name (INFO excluded). */
  byCommand: Map<string, { calls: number; usec: number }>;
}

/**
 * Commands a client issues that never run inside a script: script calls and blocking pops. INFO
 * commandstats also counts the commands scripts run (and their time, which is already in the
 * script's), so every other command counts as inner: both sides of the benchmark issue only these
 * (plus a few connection setup commands) on their hot paths.
 */
const TOP_LEVEL = new Set([
  'eval',
  'evalsha',
  'eval_ro',
  'evalsha_ro',
  'fcall',
  'fcall_ro',
  'blpop',
  'brpop',
  'bzpopmin',
  'bzpopmax',
  'brpoplpush',
  'blmove',
]);

/** Totals of INFO commandstats (see TOP_LEVEL), except INFO itself (our probes). */
export async function commandTotals(admin: Redis): Promise<CommandTotals> {
  const info = await admin.info('commandstats');
  const totals: CommandTotals = { usec: 0, calls: 0, inner: 0, byCommand: new Map() };
  for (const match of info.matchAll(/^cmdstat_([^:]+):calls=(\d+),usec=(\d+)/gm)) {
    const name = match[1] ?? '';
    if (name === 'info') continue;
    totals.byCommand.set(name, { calls: Number(match[2]), usec: Number(match[3]) });
    if (TOP_LEVEL.has(name)) {
      totals.calls += Number(match[2]);
      totals.usec += Number(match[3]);
    } else totals.inner += Number(match[2]);
  }
  return totals;
}

/** Redis process CPU time (user + sys), seconds. */
export async function redisCpuSeconds(admin: Redis): Promise<number> {
  const info = await admin.info('cpu');
  const field = (name: string) => Number(new RegExp(`${name}:([\\d.]+)`).exec(info)?.[1] ?? 0);
  return field('used_cpu_user') + field('used_cpu_sys');
}

/** INFO used_memory, bytes. */
export async function usedMemory(redis: Redis): Promise<number> {
  const info = await redis.info('memory');
  return Number(/used_memory:(\d+)/.exec(info)?.[1]);
}
