import { MAILBOX_SCRIPTS } from './mailbox-scripts';

/**
 * The Lua source and SHA1 of every mailbox script, for operators and benchmarks (e.g. `SCRIPT LOAD`
 * then `redis-benchmark EVALSHA`). Every script takes no keys and ARGV[1] = the key prefix.
 */
export const MAILBOX_LUA: Readonly<Record<keyof typeof MAILBOX_SCRIPTS, { source: string; sha: string }>> =
  Object.fromEntries(
    Object.entries(MAILBOX_SCRIPTS).map(([name, script]) => [
      name,
      { source: script.source, sha: script.sha },
    ]),
  ) as Record<keyof typeof MAILBOX_SCRIPTS, { source: string; sha: string }>;
