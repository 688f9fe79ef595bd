/**
 * Migration 9: `mb_claim` (migration 5) finds its rows by key whatever the planner estimates. Its
 * lock step joined the candidate threads to `mailbox_threads` and its claim step read the chosen
 * threads' heads with `thread_id = ANY (…)`: on tables whose statistics say "small" (a new schema, a
 * queue that drains) the plans were a sequential scan of every thread row and a bitmap scan of every
 * entry of `dispatches_ready`, dead ones included — a bitmap scan never marks an index entry dead,
 * so each claim read every dispatch queued since the last vacuum (EXPLAIN in
 * tooling/bench/results/postgres-issue-37-s8.md). Now each candidate thread is locked by primary key
 * (`FOR UPDATE SKIP LOCKED`, in claim order, until `p_limit` are held) and each held thread's head is
 * one index probe of `dispatches_thread_queue` (`LIMIT 1` in (priority, seq) order). Its statements
 * take their generic plan (`plan_cache_mode`): planned once per connection, not at every call — the
 * custom plans PL/pgSQL chose cost more than the claim's statements themselves. Same arguments,
 * same reply, same request record, same lock order (thread rows only, none waited for).
 * `S` is the quoted schema.
 */
export const MIGRATION_0009 = (S: string): string => `
CREATE OR REPLACE FUNCTION ${S}.mb_claim(p_req text, p_retry boolean, p_test boolean,
  p_worker text, p_limit integer, p_lease_ms bigint, p_scan integer) RETURNS text LANGUAGE plpgsql
  SET plan_cache_mode = force_generic_plan AS $fn$
DECLARE
  v_at bigint := ${S}.clock_ms(p_test);
  v_candidates text[];
  v_candidate text;
  v_threads text[] := '{}';
  v_reply text;
BEGIN
  IF p_retry THEN
    SELECT reply INTO v_reply FROM ${S}.requests WHERE id = p_req;
    IF FOUND THEN RETURN v_reply; END IF;
  END IF;
  IF v_at + p_lease_ms > 9007199254740991 THEN RETURN '!{"code":"lease_range"}'; END IF;
  -- the threads of the first due dispatches (partial index dispatches_ready), in claim order
  SELECT array_agg(heads.thread_id ORDER BY heads.priority, heads.seq) INTO v_candidates FROM (
    SELECT DISTINCT ON (thread_id) thread_id, priority, seq FROM (
      SELECT d.thread_id, d.priority, d.seq FROM ${S}.dispatches d
      WHERE d.status = 'queued' AND d.available_at <= v_at
        AND NOT EXISTS (SELECT 1 FROM ${S}.mailbox_threads c WHERE c.thread_id = d.thread_id AND c.claimed_id IS NOT NULL)
      ORDER BY d.priority, d.seq LIMIT p_scan) due
    ORDER BY thread_id, priority, seq) heads;
  -- up to p_limit of them without a claim, each locked by primary key in that order, skipping any
  -- another transaction holds
  FOREACH v_candidate IN ARRAY coalesce(v_candidates, '{}') LOOP
    EXIT WHEN cardinality(v_threads) >= p_limit;
    PERFORM 1 FROM ${S}.mailbox_threads t
      WHERE t.thread_id = v_candidate AND t.claimed_id IS NULL FOR UPDATE SKIP LOCKED;
    IF FOUND THEN v_threads := v_threads || v_candidate; END IF;
  END LOOP;
  IF cardinality(v_threads) = 0 THEN
    v_reply := '[]';
  ELSE
    WITH heads AS (
      SELECT h.dispatch_id, h.thread_id, h.doc, h.priority, h.seq
      FROM unnest(v_threads) AS held (thread_id)
      CROSS JOIN LATERAL (
        SELECT d.dispatch_id, d.thread_id, d.doc, d.priority, d.seq FROM ${S}.dispatches d
        WHERE d.thread_id = held.thread_id AND d.status = 'queued' AND d.available_at <= v_at
        ORDER BY d.priority, d.seq LIMIT 1) h
      ORDER BY h.priority, h.seq LIMIT p_limit),
    claimed AS (
      UPDATE ${S}.dispatches d SET status = 'claimed', lease_until = v_at + p_lease_ms, updated_at = v_at,
        doc = ${S}.json_patch(heads.doc, '{"status":"claimed","updatedAt":' || v_at || ',"claimToken":"'
          || gen_random_uuid() || '","claimedBy":' || p_worker || ',"leaseUntil":' || (v_at + p_lease_ms) || '}', '{}')
      FROM heads WHERE d.dispatch_id = heads.dispatch_id
      RETURNING d.dispatch_id, d.thread_id, d.doc, heads.priority, heads.seq),
    taken AS (
      UPDATE ${S}.mailbox_threads t SET claimed_id = claimed.dispatch_id FROM claimed
      WHERE t.thread_id = claimed.thread_id RETURNING 1)
    SELECT '[' || coalesce(string_agg(doc, ',' ORDER BY priority, seq), '') || ']' INTO v_reply FROM claimed;
  END IF;
  IF p_req IS NOT NULL THEN INSERT INTO ${S}.requests (id, reply, at) VALUES (p_req, v_reply, v_at); END IF;
  RETURN v_reply;
END
$fn$;
`;
