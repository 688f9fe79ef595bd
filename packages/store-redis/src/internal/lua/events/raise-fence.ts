import { defineMutatingScript } from '../idempotent-script';
import { EVENT_LOG_PRELUDE } from './event-log-prelude';

/** ARGV: prefix, runId, streamKey, metaKey, fence. Raises the fence and returns the last seq. */
export const RAISE_FENCE = defineMutatingScript(
  'events.raiseFence',
  `${EVENT_LOG_PRELUDE}
local stale = check_fence()
if stale then return stale end
raise_fence()
return tonumber(redis.call('HGET', meta, 'last') or '0')
`,
);
