/**
 * Records a run result on a fenced dispatch `h`: ARGV[first] is the result's runId, which must be the
 * dispatch's; ARGV[first + 1 .. last] are field/value pairs of the result to set (stored field names);
 * fields given with the value '\\0' are removed (a later result replaces an earlier one completely).
 * Returns the rejection text, before any write, when the run ids differ.
 */
export const WRITE_RESULT = `
local function write_result(h, now, first, last)
  if ARGV[first] ~= with_inputs(h).r then
    return rejection('validation_failed', 'result of run ' .. ARGV[first] .. ' recorded on a dispatch of run ' .. h.r)
  end
  redis.call('HSET', dkey(h.id), 'rc', num(now), 'u', num(now))
  for i = first + 1, last, 2 do
    if ARGV[i + 1] == '\\0' then redis.call('HDEL', dkey(h.id), ARGV[i])
    else redis.call('HSET', dkey(h.id), ARGV[i], ARGV[i + 1]) end
  end
end
`;
