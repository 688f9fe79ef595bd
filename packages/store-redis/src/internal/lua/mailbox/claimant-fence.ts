/**
 * The opening of the claimant writes (nack, dead letter, extend lease, record dispatch start, record
 * run result; the batched ack fences each of its items itself): the fencing check (token, lease held
 * at Redis TIME, epoch), which writes nothing when it fails. ARGV: prefix, dispatchId, claimToken, ...
 * Each replies with the dispatch as written (HGETALL), except the batched ack.
 */
export const CLAIMANT_FENCE = `
local id, token = ARGV[2], ARGV[3]
local now = now_ms()
local h, rejected = fenced(id, token, now)
if not h then return redis.error_reply(rejected) end
`;
