import { defineLuaScript } from '../lua-script';

/**
 * Compare-and-set of a run locator entry (`internal/cluster/run-locator.ts`): KEYS[1] the entry,
 * ARGV: the thread it must still name, the thread to name instead. 1 when swapped, 0 when the entry
 * changed meanwhile (another process replaced it first).
 */
export const SWAP_RUN_LOCATOR = defineLuaScript(`
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[2])
return 1
`);
