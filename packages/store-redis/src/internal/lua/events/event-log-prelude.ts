import { PRELUDE } from '../prelude';

/**
 * Lua shared by the event log scripts, after the shared prelude (`../prelude.ts`). Keys (see
 * `keys/run-keys.ts`): `P ev:<run>` (a stream, entry id `0-<seq>`, field `e`) and `P evm:<run>`
 * (hash: `last` seq, `finished`, `fence` = the highest run fence a write presented). ARGV of every
 * script: prefix, runId, streamKey, metaKey, fence, ... Every script checks the fence first (a lower
 * one → stale_claim, nothing written) and raises the stored one to the writer's.
 */
export const EVENT_LOG_PRELUDE = `${PRELUDE}
local run, stream, meta, fence = ARGV[2], ARGV[3], ARGV[4], tonumber(ARGV[5])
-- The stale_claim rejection when the stored fence (current) is above the writer's, else nil.
local function stale_fence(current)
  if fence < current then
    return fail('stale_claim', 'the event log of run ' .. run .. ' is at fence ' ..
      num(current) .. ', the writer has ' .. num(fence))
  end
  return nil
end
local function check_fence()
  return stale_fence(tonumber(redis.call('HGET', meta, 'fence') or '0'))
end
local function raise_fence()
  if fence > 0 then redis.call('HSET', meta, 'fence', num(fence)) end
end
`;
