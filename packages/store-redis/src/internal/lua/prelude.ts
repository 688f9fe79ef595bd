/**
 * The Lua every script of this package opens with; each family adds its own key layout and helpers
 * after it (`mailbox/mailbox-prelude.ts`, `threads/thread-prelude.ts`, `events/event-log-prelude.ts`,
 * `controls/control-inbox-prelude.ts`). ARGV[1] is the key prefix, `P`.
 *
 * - `num(n)`: an integer as text, written with %.0f (Lua's default formatting keeps only 14
 *   significant digits).
 * - `now_ms()`: the store clock, Redis TIME in milliseconds, except in test-clock mode: then the
 *   caller passes KEYS[1] = `P clock`, and a millisecond value stored there (by a test harness, never
 *   a worker) freezes it. On a cluster KEYS[1] is otherwise the route key `P route` (never read), so
 *   that the cluster client sends the call to the node serving the store's slot.
 * - `rejection(code, message)`: a rejection as text, `AWAKEN <code> <message>` (what `toStoreError`
 *   reads); a batched script answers an item with it. `fail(code, message)` makes it the script's
 *   error reply.
 */
export const PRELUDE = `
local P = ARGV[1]
local function num(n) return string.format('%.0f', n) end
local function now_ms()
  if KEYS[1] == P .. 'clock' then
    local frozen = redis.call('GET', KEYS[1])
    if frozen then return tonumber(frozen) end
  end
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
-- A rejection as text (a batched script's per-item reply); fail() makes it the script's error reply.
local function rejection(code, message) return 'AWAKEN ' .. code .. ' ' .. message end
local function fail(code, message) return redis.error_reply(rejection(code, message)) end
`;
