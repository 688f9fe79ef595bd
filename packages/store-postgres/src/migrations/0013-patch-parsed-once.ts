/**
 * Migration 13: the claim and the settle patch a dispatch document with one parse of it. Both
 * called `json_patch` (migration 5), which parses the document twice and the patch four times
 * (`::json` casts, `json_each` of each, `json_object_keys` of the patch in a hashed sub-plan) and
 * re-emits the patch member by member: ~24–44 µs a call, twice per enqueue → claim → ack cycle
 * (tooling/bench/results/mailbox-postgres-issue-37-s9.md). `json_patch_members` takes the patch as
 * compact JSON members (`"k":v,…`, as the claim and the settle build them: constants, numbers and
 * the store's `JSON.stringify` output) with the names of the members it replaces or drops, keeps the
 * document's other members in order (`json_each` of the document alone) and appends the patch text
 * as it is. For such members its result is byte for byte `json_patch(doc, '{' || members || '}',
 * keys)`: the same key order, the same member texts. A document or patch holding a `\u0000` escape
 * takes `json_patch` itself (it hides them from the parser). The claim's UPDATE and the settle's
 * UPDATE write its common path out in the statement (a PL/pgSQL call per document cost about as much
 * as the patch itself), and the settle patches in its UPDATE (`RETURNING doc`), one statement fewer.
 * `mb_claim` (as in migration 9) and `mb_settle` (as in migration 5) are otherwise unchanged: same
 * arguments, same replies, same request records, same checks, writes and lock order.
 * `S` is the quoted schema.
 */
export const MIGRATION_0013 = (S: string): string => `
-- doc without its top-level members named in p_keys, then p_members (compact JSON object members,
-- each named in p_keys) appended: json_patch(p_doc, '{' || p_members || '}', p_keys), parsing the doc once
CREATE FUNCTION ${S}.json_patch_members(p_doc text, p_members text, p_keys text[]) RETURNS text
  LANGUAGE plpgsql IMMUTABLE AS $fn$
DECLARE
  v_kept text;
BEGIN
  IF strpos(p_doc, '\\u0000') > 0 OR strpos(p_members, '\\u0000') > 0 THEN
    RETURN ${S}.json_patch(p_doc, '{' || p_members || '}', p_keys);
  END IF;
  SELECT string_agg(to_json(d.key)::text || ':' || d.value::text, ',') INTO v_kept
    FROM json_each(p_doc::json) AS d WHERE d.key <> ALL (p_keys);
  RETURN '{' || concat_ws(',', v_kept, nullif(p_members, '')) || '}';
END
$fn$;

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
        -- json_patch_members, its common path written out (a function call costs as much as the patch)
        doc = CASE WHEN strpos(heads.doc, '\\u0000') = 0 AND strpos(p_worker, '\\u0000') = 0 THEN (
          SELECT '{' || concat_ws(',', string_agg(to_json(e.key)::text || ':' || e.value::text, ','),
            '"status":"claimed","updatedAt":' || v_at || ',"claimToken":"' || gen_random_uuid()
            || '","claimedBy":' || p_worker || ',"leaseUntil":' || (v_at + p_lease_ms)) || '}'
          FROM json_each(heads.doc::json) AS e
          WHERE e.key <> ALL (ARRAY['status', 'updatedAt', 'claimToken', 'claimedBy', 'leaseUntil']))
        ELSE ${S}.json_patch_members(heads.doc, '"status":"claimed","updatedAt":' || v_at || ',"claimToken":"'
          || gen_random_uuid() || '","claimedBy":' || p_worker || ',"leaseUntil":' || (v_at + p_lease_ms),
          ARRAY['status', 'updatedAt', 'claimToken', 'claimedBy', 'leaseUntil']) END
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

CREATE OR REPLACE FUNCTION ${S}.mb_settle(p_req text, p_retry boolean, p_test boolean, p_wake text,
  p_id text, p_token text, p_status text, p_patch text, p_drop text[], p_completed boolean,
  p_lease_ms bigint, p_retry_at bigint, p_run text) RETURNS text LANGUAGE plpgsql AS $fn$
DECLARE
  v_at bigint := ${S}.clock_ms(p_test);
  v_thread text;
  v_epoch bigint;
  v_row record;
  v_doc json;
  v_status text := p_status;
  v_available bigint;
  v_lease bigint;
  v_attempts bigint;
  v_fields text := p_patch;
  v_drop text[] := p_drop;
  v_new text;
  v_run text;
  v_keys text[] := '{}';
BEGIN
  IF p_retry THEN
    SELECT reply INTO v_new FROM ${S}.requests WHERE id = p_req;
    IF FOUND THEN RETURN v_new; END IF;
  END IF;
  -- the dispatch's thread locked first (the lock order of every mailbox write), then the dispatch read
  SELECT t.thread_id, t.epoch INTO v_thread, v_epoch FROM ${S}.mailbox_threads t
    WHERE t.thread_id = (SELECT d.thread_id FROM ${S}.dispatches d WHERE d.dispatch_id = p_id) FOR UPDATE;
  SELECT doc, status, lease_until, available_at INTO v_row FROM ${S}.dispatches WHERE dispatch_id = p_id;
  IF v_epoch IS NULL OR NOT FOUND THEN RETURN '!{"code":"not_found"}'; END IF;
  IF v_row.status <> 'claimed' THEN
    RETURN '!{"code":"stale_claim","reason":"it is ' || v_row.status || ', not claimed"}';
  END IF;
  -- read through the JSON parser with \\u0000 escapes hidden (see json_patch)
  v_doc := regexp_replace(v_row.doc, '(?<!\\\\)((?:\\\\\\\\)*)\\\\u0000', '\\1\\\\ue000', 'g')::json;
  IF (v_doc -> 'claimToken')::text IS DISTINCT FROM p_token THEN
    RETURN '!{"code":"stale_claim","reason":"the claim token is not current"}';
  END IF;
  IF v_row.lease_until IS NULL OR v_at > v_row.lease_until THEN
    RETURN '!{"code":"stale_claim","reason":"the lease expired"}';
  END IF;
  IF (v_doc ->> 'dispatchEpoch')::bigint <> v_epoch THEN
    RETURN '!{"code":"stale_claim","reason":"the thread was interrupted (epoch moved on)"}';
  END IF;
  IF p_run IS NOT NULL THEN
    v_run := regexp_replace((v_doc -> 'runId')::text, '(?<!\\\\)((?:\\\\\\\\)*)\\\\ue000', '\\1\\\\u0000', 'g');
    IF v_run IS DISTINCT FROM p_run THEN RETURN '!{"code":"run_mismatch","runId":' || v_run || '}'; END IF;
  END IF;
  IF p_lease_ms IS NOT NULL AND v_at + p_lease_ms > 9007199254740991 THEN RETURN '!{"code":"lease_range"}'; END IF;
  v_available := v_row.available_at;
  v_lease := v_row.lease_until;
  IF p_status = 'nack' THEN
    v_attempts := (v_doc ->> 'attemptCount')::bigint + 1;
    v_fields := v_fields || ',"attemptCount":' || v_attempts;
    IF v_attempts >= (v_doc ->> 'maxAttempts')::bigint THEN
      v_status := 'dead_letter';
    ELSE
      v_status := 'queued';
      v_available := coalesce(p_retry_at, v_at);
      v_fields := v_fields || ',"availableAt":' || v_available;
    END IF;
  END IF;
  v_fields := v_fields || ',"status":"' || v_status || '","updatedAt":' || v_at;
  IF p_completed THEN v_fields := v_fields || ',"completedAt":' || v_at; END IF;
  IF p_lease_ms IS NOT NULL THEN
    v_lease := v_at + p_lease_ms;
    v_fields := v_fields || ',"leaseUntil":' || v_lease;
  END IF;
  IF v_status <> 'claimed' THEN
    v_lease := NULL;
    v_drop := v_drop || ARRAY['claimToken', 'leaseUntil'];
  END IF;
  -- the doc's members replaced: the caller's fields (compact JSON members; with a \\u0000 escape
  -- json_patch_members takes json_patch's path, which finds them itself), the ones set here, the dropped
  IF p_patch <> '' AND strpos(p_patch, '\\u0000') = 0 THEN
    v_keys := ARRAY(SELECT json_object_keys(('{' || substr(p_patch, 2) || '}')::json));
  END IF;
  v_keys := v_keys || ARRAY['status', 'updatedAt'];
  IF p_status = 'nack' THEN v_keys := v_keys || ARRAY['attemptCount']; END IF;
  IF p_status = 'nack' AND v_status = 'queued' THEN v_keys := v_keys || ARRAY['availableAt']; END IF;
  IF p_completed THEN v_keys := v_keys || ARRAY['completedAt']; END IF;
  IF p_lease_ms IS NOT NULL THEN v_keys := v_keys || ARRAY['leaseUntil']; END IF;
  v_keys := v_keys || v_drop;
  -- json_patch_members, its common path written out, in the write itself (one statement fewer)
  UPDATE ${S}.dispatches SET status = v_status, available_at = v_available, lease_until = v_lease,
    updated_at = v_at,
    doc = CASE WHEN strpos(v_row.doc, '\\u0000') = 0 AND strpos(v_fields, '\\u0000') = 0 THEN (
      SELECT '{' || concat_ws(',', string_agg(to_json(e.key)::text || ':' || e.value::text, ','), substr(v_fields, 2)) || '}'
      FROM json_each(v_row.doc::json) AS e WHERE e.key <> ALL (v_keys))
    ELSE ${S}.json_patch_members(v_row.doc, substr(v_fields, 2), v_keys) END
    WHERE dispatch_id = p_id RETURNING doc INTO v_new;
  IF v_status <> 'claimed' THEN
    UPDATE ${S}.mailbox_threads SET claimed_id = NULL WHERE thread_id = v_thread AND claimed_id = p_id;
    IF p_wake IS NOT NULL AND (v_status = 'queued' OR EXISTS (
      SELECT 1 FROM ${S}.dispatches WHERE thread_id = v_thread AND status = 'queued' AND dispatch_id <> p_id)) THEN
      PERFORM pg_notify(p_wake, '');
    END IF;
  END IF;
  IF p_req IS NOT NULL THEN INSERT INTO ${S}.requests (id, reply, at) VALUES (p_req, v_new, v_at); END IF;
  RETURN v_new;
END
$fn$;
`;
