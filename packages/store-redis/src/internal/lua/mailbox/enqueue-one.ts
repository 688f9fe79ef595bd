/**
 * One enqueue, shared by ENQUEUE and ENQUEUE_AND_CLAIM: `enqueue_one(i, seq, now, stamp, claim)` reads
 * the 8 values of one dispatch from ARGV[i..i+7] (dispatchId, threadId, runId, priority,
 * dedupeKey|'', availableAt|'', maxAttempts, '1' when the caller chose the id ('' when the store
 * generated a fresh UUIDv7; both are checked for existence: the same call may run twice)), checks it,
 * then writes it. With `claim` ({ worker, lease, token, instance|'' }) and no claim on its thread, the
 * dispatch is written claimed at once (no thread queue, no ready entry, no wake-up: its claimer runs
 * it); otherwise it is queued. Returns its epoch (or its rejection text) and whether it was claimed.
 */
export const ENQUEUE_ONE = `
local function enqueue_one(i, seq, now, stamp, claim)
  local id, thread, run_id = ARGV[i], ARGV[i + 1], ARGV[i + 2]
  local priority, dedupe, available, max_attempts = ARGV[i + 3], ARGV[i + 4], ARGV[i + 5], ARGV[i + 6]
  local holder = dedupe ~= '' and redis.call('HGET', tddkey(thread), dedupe)
  -- Generated ids are checked too: a call re-sent after a lost reply whose record is gone (request
  -- recording off, or expired) runs again, and must not rewrite the dispatch it created.
  if redis.call('EXISTS', dkey(id)) == 1 then
    return rejection('conflict', 'dispatch ' .. id .. ' already exists'), false
  elseif holder then
    return rejection('dedupe_conflict', 'dedupe key ' .. dedupe .. ' is held by dispatch ' .. holder), false
  end
  local available_at = now
  if available ~= '' then available_at = tonumber(available) end
  -- the thread's epoch and whether it has a claim, in one read
  local state = redis.call('HMGET', THREADS, 'e:' .. thread, 'c:' .. thread)
  local epoch, has_claim = state[1] or '0', state[2] ~= false
  local score = num(tonumber(priority) * PRIORITY_WEIGHT + seq)
  local inputs = priority .. ',' .. max_attempts .. ',' .. epoch .. ',' .. stamp .. ',' .. run_id
  local claimed = claim ~= nil and not has_claim and claim_thread(thread, id)
  local fields = { 't', thread, 'i', inputs, 'q', score, 's', 'queued', 'a', num(available_at), 'n', '0', 'u', stamp }
  if dedupe ~= '' then
    fields[#fields + 1] = 'k'
    fields[#fields + 1] = dedupe
    redis.call('HSET', tddkey(thread), dedupe, id)
  end
  if claimed then
    fields[8] = 'claimed'
    for _, value in ipairs({ 'ct', claim.token, 'cb', claim.worker, 'l', claim.lease }) do
      fields[#fields + 1] = value
    end
    if claim.instance ~= '' then
      for _, value in ipairs({ 'ri', claim.instance, 'rs', 'running' }) do fields[#fields + 1] = value end
    end
  end
  redis.call('HSET', dkey(id), unpack(fields))
  redis.call('ZADD', takey(thread), seq, id)
  restatus(id, seq, nil, claimed and 'claimed' or 'queued')
  if claimed then redis.call('ZADD', LEASES, claim.lease, id)
  elseif available_at > now then
    redis.call('ZADD', tlkey(thread), score, id)
    redis.call('ZADD', DELAYED, num(available_at), id)
  else
    -- as queue_due, with the claim already known: into ready when it heads a thread without a
    -- claim (an empty queue needs no ZRANGE: an integer reply costs Lua far less than an array)
    local queue = tqkey(thread)
    local first = not has_claim and redis.call('EXISTS', queue) == 0
    redis.call('ZADD', queue, score, id)
    if first or (not has_claim and redis.call('ZRANGE', queue, 0, 0)[1] == id) then
      redis.call('ZADD', READY, score, id)
    end
    if not has_claim then signal_work() end
  end
  return epoch, claimed
end
`;
