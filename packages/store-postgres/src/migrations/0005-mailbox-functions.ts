/**
 * Migration 5: the mailbox's hot writes as server-side functions, so each is one statement in one
 * round trip (the store sends `BEGIN; SELECT fn(…); COMMIT`, several calls of one tick in one
 * message). Each function reads the store clock once, answers a re-sent request from its recorded
 * reply, locks the thread row before any dispatch (the lock order of every mailbox write), checks
 * everything before writing (a refusal is returned as `!` + JSON, with nothing written), writes the
 * dispatch, the thread and the request record, and NOTIFYs on commit when work became claimable.
 * PL/pgSQL plans each statement once per connection. Documents stay JSON text: fields are patched
 * textually (`json_patch`), `\u0000` escapes hidden from the JSON parser, which refuses them.
 * `S` is the quoted schema.
 */
export const MIGRATION_0005 = (S: string): string => `
CREATE FUNCTION ${S}.clock_ms(p_test boolean) RETURNS bigint LANGUAGE sql VOLATILE AS $fn$
  SELECT CASE WHEN p_test THEN coalesce((SELECT ms FROM ${S}.test_clock), (floor(extract(epoch from clock_timestamp()) * 1000))::bigint)
    ELSE (floor(extract(epoch from clock_timestamp()) * 1000))::bigint END
$fn$;

-- doc with the fields of the JSON object patch set (added or replaced) and the keys in drop removed
CREATE FUNCTION ${S}.json_patch(p_doc text, p_patch text, p_drop text[]) RETURNS text LANGUAGE plpgsql IMMUTABLE AS $fn$
DECLARE
  v_nul boolean := strpos(p_doc, '\\u0000') > 0 OR strpos(p_patch, '\\u0000') > 0;
  v_doc text := p_doc;
  v_patch text := p_patch;
  v_out text;
BEGIN
  IF v_nul THEN
    -- an escape preceded by an even run of backslashes; JSON.stringify never writes \\ue000 escaped
    v_doc := regexp_replace(v_doc, '(?<!\\\\)((?:\\\\\\\\)*)\\\\u0000', '\\1\\\\ue000', 'g');
    v_patch := regexp_replace(v_patch, '(?<!\\\\)((?:\\\\\\\\)*)\\\\u0000', '\\1\\\\ue000', 'g');
  END IF;
  SELECT '{' || string_agg(to_json(f.k)::text || ':' || f.v::text, ',') || '}' INTO v_out FROM (
    SELECT d.key AS k, d.value AS v FROM json_each(v_doc::json) AS d
      WHERE NOT (d.key = ANY (p_drop)) AND NOT (d.key IN (SELECT json_object_keys(v_patch::json)))
    UNION ALL
    SELECT p.key, p.value FROM json_each(v_patch::json) AS p) f;
  IF v_nul THEN
    v_out := regexp_replace(v_out, '(?<!\\\\)((?:\\\\\\\\)*)\\\\ue000', '\\1\\\\u0000', 'g');
  END IF;
  RETURN v_out;
END
$fn$;

-- enqueue (p_claim_fields not null: enqueueAndClaim, claimed at once when the thread holds no claim)
CREATE FUNCTION ${S}.mb_enqueue(p_req text, p_retry boolean, p_test boolean, p_wake text,
  p_id text, p_thread text, p_dedupe text, p_doc text, p_priority integer, p_available_at bigint,
  p_claim_fields text, p_lease_ms bigint) RETURNS text LANGUAGE plpgsql AS $fn$
DECLARE
  v_at bigint := ${S}.clock_ms(p_test);
  v_thread record;
  v_holder text;
  v_doc text;
  v_status text := 'queued';
  v_available bigint := coalesce(p_available_at, v_at);
  v_lease bigint;
BEGIN
  IF p_retry THEN
    SELECT reply INTO v_doc FROM ${S}.requests WHERE id = p_req;
    IF FOUND THEN RETURN v_doc; END IF;
  END IF;
  SELECT t.epoch, t.claimed_id INTO v_thread FROM ${S}.mailbox_threads t WHERE t.thread_id = p_thread FOR UPDATE;
  IF NOT FOUND THEN -- the thread's first dispatch: its row, created (or waited for) and locked
    INSERT INTO ${S}.mailbox_threads (thread_id) VALUES (p_thread) ON CONFLICT DO NOTHING;
    SELECT t.epoch, t.claimed_id INTO v_thread FROM ${S}.mailbox_threads t WHERE t.thread_id = p_thread FOR UPDATE;
  END IF;
  IF p_claim_fields IS NOT NULL AND v_at + p_lease_ms > 9007199254740991 THEN RETURN '!{"code":"lease_range"}'; END IF;
  IF p_dedupe IS NOT NULL THEN
    PERFORM 1 FROM ${S}.dispatches WHERE dispatch_id = p_id;
    IF FOUND THEN RETURN '!{"code":"exists"}'; END IF;
    SELECT doc INTO v_holder FROM ${S}.dispatches
      WHERE thread_id = p_thread AND dedupe_key = p_dedupe AND status IN ('queued', 'claimed');
    IF FOUND THEN RETURN '!{"code":"dedupe_conflict","holder":' || v_holder || '}'; END IF;
  END IF;
  v_doc := left(p_doc, -1) || ',"dispatchEpoch":' || v_thread.epoch;
  IF p_claim_fields IS NOT NULL AND v_thread.claimed_id IS NULL THEN
    v_status := 'claimed';
    v_lease := v_at + p_lease_ms;
    v_doc := v_doc || ',"status":"claimed","availableAt":' || v_available || ',"createdAt":' || v_at
      || ',"updatedAt":' || v_at || ',"claimToken":"' || gen_random_uuid() || '","leaseUntil":' || v_lease
      || p_claim_fields || '}';
  ELSE
    v_doc := v_doc || ',"status":"queued","availableAt":' || v_available || ',"createdAt":' || v_at
      || ',"updatedAt":' || v_at || '}';
  END IF;
  INSERT INTO ${S}.dispatches (dispatch_id, thread_id, status, priority, available_at, lease_until, updated_at, dedupe_key, doc)
    VALUES (p_id, p_thread, v_status, p_priority, v_available, v_lease, v_at, p_dedupe, v_doc)
    ON CONFLICT DO NOTHING;
  IF NOT FOUND THEN RETURN '!{"code":"exists"}'; END IF;
  IF v_status = 'claimed' THEN
    UPDATE ${S}.mailbox_threads SET claimed_id = p_id WHERE thread_id = p_thread;
  ELSIF v_available <= v_at AND p_wake IS NOT NULL THEN
    PERFORM pg_notify(p_wake, '');
  END IF;
  IF p_req IS NOT NULL THEN INSERT INTO ${S}.requests (id, reply, at) VALUES (p_req, v_doc, v_at); END IF;
  RETURN v_doc;
END
$fn$;

-- claim up to p_limit due dispatches, one per thread, none of a thread holding a claim (SKIP LOCKED)
CREATE FUNCTION ${S}.mb_claim(p_req text, p_retry boolean, p_test boolean,
  p_worker text, p_limit integer, p_lease_ms bigint, p_scan integer) RETURNS text LANGUAGE plpgsql AS $fn$
DECLARE
  v_at bigint := ${S}.clock_ms(p_test);
  v_candidates text[];
  v_threads text[];
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
  -- up to p_limit of them without a claim locked in that order, by primary key, skipping any another
  -- transaction holds
  IF v_candidates IS NOT NULL THEN
    SELECT array_agg(locked.thread_id) INTO v_threads FROM (
      SELECT t.thread_id FROM unnest(v_candidates) WITH ORDINALITY AS c (thread_id, pos)
      JOIN ${S}.mailbox_threads t ON t.thread_id = c.thread_id
      WHERE t.claimed_id IS NULL
      ORDER BY c.pos
      LIMIT p_limit
      FOR UPDATE OF t SKIP LOCKED) locked;
  END IF;
  IF v_threads IS NULL THEN
    v_reply := '[]';
  ELSE
    WITH heads AS (
      SELECT * FROM (
        SELECT DISTINCT ON (thread_id) dispatch_id, thread_id, doc, priority, seq FROM ${S}.dispatches
        WHERE thread_id = ANY (v_threads) AND status = 'queued' AND available_at <= v_at
        ORDER BY thread_id, priority, seq) h
      ORDER BY priority, seq LIMIT p_limit),
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

-- a claimant write fenced by claim token, lease (store clock) and thread epoch: ack, nack ('nack':
-- queued at p_retry_at or dead letter), dead letter, extend (p_lease_ms), start and result records
CREATE FUNCTION ${S}.mb_settle(p_req text, p_retry boolean, p_test boolean, p_wake text,
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
  v_new := ${S}.json_patch(v_row.doc, '{' || substr(v_fields, 2) || '}', v_drop);
  UPDATE ${S}.dispatches SET status = v_status, available_at = v_available, lease_until = v_lease,
    updated_at = v_at, doc = v_new WHERE dispatch_id = p_id;
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

-- interrupt: the thread's epoch + 1, its queued dispatches superseded, its active claim reported
CREATE FUNCTION ${S}.mb_interrupt(p_req text, p_retry boolean, p_test boolean, p_thread text)
  RETURNS text LANGUAGE plpgsql AS $fn$
DECLARE
  v_at bigint := ${S}.clock_ms(p_test);
  v_thread record;
  v_epoch bigint;
  v_count bigint;
  v_active text;
  v_reply text;
BEGIN
  IF p_retry THEN
    SELECT reply INTO v_reply FROM ${S}.requests WHERE id = p_req;
    IF FOUND THEN RETURN v_reply; END IF;
  END IF;
  SELECT t.epoch, t.claimed_id INTO v_thread FROM ${S}.mailbox_threads t WHERE t.thread_id = p_thread FOR UPDATE;
  IF NOT FOUND THEN -- the thread's first dispatch: its row, created (or waited for) and locked
    INSERT INTO ${S}.mailbox_threads (thread_id) VALUES (p_thread) ON CONFLICT DO NOTHING;
    SELECT t.epoch, t.claimed_id INTO v_thread FROM ${S}.mailbox_threads t WHERE t.thread_id = p_thread FOR UPDATE;
  END IF;
  v_epoch := v_thread.epoch + 1;
  UPDATE ${S}.mailbox_threads SET epoch = v_epoch WHERE thread_id = p_thread;
  WITH superseded AS (
    UPDATE ${S}.dispatches SET status = 'superseded', lease_until = NULL, updated_at = v_at,
      doc = ${S}.json_patch(doc, '{"status":"superseded","updatedAt":' || v_at || '}', ARRAY['claimToken', 'leaseUntil'])
    WHERE thread_id = p_thread AND status = 'queued' RETURNING 1)
  SELECT count(*) INTO v_count FROM superseded;
  IF v_thread.claimed_id IS NOT NULL THEN
    SELECT doc INTO v_active FROM ${S}.dispatches WHERE dispatch_id = v_thread.claimed_id;
  END IF;
  v_reply := '{"newDispatchEpoch":' || v_epoch
    || CASE WHEN v_active IS NULL THEN '' ELSE ',"activeDispatch":' || v_active END
    || ',"supersededCount":' || v_count || '}';
  IF p_req IS NOT NULL THEN INSERT INTO ${S}.requests (id, reply, at) VALUES (p_req, v_reply, v_at); END IF;
  RETURN v_reply;
END
$fn$;
`;
