/**
 * Migration 6: the run's hot writes as server-side functions, each one statement in one round trip
 * (sent as a named prepared statement, its own transaction): an event append, a checkpoint, the
 * two together (the joint checkpoint write), and a run created with its first lease. Like the
 * mailbox functions (migration 5) each reads the store clock once, answers a re-sent request from
 * its recorded reply, checks before it writes (a refusal is returned as `!` + JSON; for the joint
 * write a refused checkpoint after written events as `?` + JSON) and records its reply with its
 * writes. A run's lease (acquire, renew, release), a log's finish and fence raise are one call too. Lock order: the event log row, then the thread, then the run (no write takes them in
 * another order). The per-row foreign keys of `events` and `messages` are dropped: their parent row
 * is locked and written in the same transaction by every writer, and the deletes that cascaded
 * (a thread's messages, an expired log's events) are made by the deleting statements. `S` is the
 * quoted schema.
 */
export const MIGRATION_0006 = (S: string): string => `
ALTER TABLE ${S}.events DROP CONSTRAINT IF EXISTS events_run_id_fkey;
ALTER TABLE ${S}.messages DROP CONSTRAINT IF EXISTS messages_thread_id_fkey;

-- a JSON document with its \\u0000 escapes hidden from the JSON parser (see json_patch)
CREATE FUNCTION ${S}.json_hidden(p_doc text) RETURNS json LANGUAGE sql IMMUTABLE AS $fn$
  SELECT (CASE WHEN strpos(p_doc, '\\u0000') > 0
    THEN regexp_replace(p_doc, '(?<!\\\\)((?:\\\\\\\\)*)\\\\u0000', '\\1\\\\ue000', 'g') ELSE p_doc END)::json
$fn$;

-- appends events after the run's log (created when missing; an expired one starts afresh): NULL when
-- written, or the refusal. p_bad: the index of the first event whose run or seq does not follow the
-- first one's (computed by the caller), NULL when they all do.
CREATE FUNCTION ${S}.ev_append(p_at bigint, p_wake text, p_payload text, p_run text, p_fence bigint,
  p_first_seq bigint, p_bad integer, p_docs text[]) RETURNS text LANGUAGE plpgsql AS $fn$
DECLARE
  v_log record;
  v_count integer := coalesce(array_length(p_docs, 1), 0);
BEGIN
  SELECT last_seq, fence, expires_at INTO v_log FROM ${S}.event_logs WHERE run_id = p_run FOR UPDATE;
  IF NOT FOUND THEN
    INSERT INTO ${S}.event_logs (run_id) VALUES (p_run) ON CONFLICT DO NOTHING;
    SELECT last_seq, fence, expires_at INTO v_log FROM ${S}.event_logs WHERE run_id = p_run FOR UPDATE;
  END IF;
  IF v_log.expires_at IS NOT NULL AND p_at >= v_log.expires_at THEN
    DELETE FROM ${S}.events WHERE run_id = p_run;
    UPDATE ${S}.event_logs SET last_seq = 0, fence = 0, expires_at = NULL WHERE run_id = p_run;
    DELETE FROM ${S}.inboxes WHERE run_id = p_run AND expires_at <= p_at;
    v_log.last_seq := 0;
    v_log.fence := 0;
    v_log.expires_at := NULL;
  END IF;
  IF p_fence < v_log.fence THEN RETURN '!{"code":"stale_fence","fence":' || v_log.fence || '}'; END IF;
  IF v_count = 0 THEN RETURN NULL; END IF;
  IF v_log.expires_at IS NOT NULL THEN RETURN '!{"code":"finished"}'; END IF;
  IF p_first_seq <> v_log.last_seq + 1 THEN
    RETURN '!{"code":"seq","index":0,"expected":' || (v_log.last_seq + 1) || '}';
  END IF;
  IF p_bad IS NOT NULL THEN
    RETURN '!{"code":"seq","index":' || p_bad || ',"expected":' || (v_log.last_seq + p_bad + 1) || '}';
  END IF;
  INSERT INTO ${S}.events (run_id, seq, doc)
    SELECT p_run, v_log.last_seq + u.n, u.doc FROM unnest(p_docs) WITH ORDINALITY AS u(doc, n);
  UPDATE ${S}.event_logs SET last_seq = v_log.last_seq + v_count, fence = p_fence WHERE run_id = p_run;
  PERFORM pg_notify(p_wake, p_payload);
  RETURN NULL;
END
$fn$;

-- the checkpoint (see commitCheckpoint): NULL when written, or the refusal; nothing written then.
-- p_from: the statuses the run may move to p_status from; p_docs: the message records without
-- their createdAt; p_title: the title the messages give a thread without one (JSON), or NULL.
CREATE FUNCTION ${S}.tr_checkpoint_at(p_at bigint, p_thread text, p_run text, p_run_json text,
  p_fence bigint, p_expected bigint, p_version bigint, p_status text, p_from text[], p_run_doc text,
  p_vis text[], p_docs text[], p_title text, p_state text) RETURNS text LANGUAGE plpgsql AS $fn$
DECLARE
  v_thread record;
  v_run record;
  v_stored json;
  v_tdoc json;
  v_count integer := coalesce(array_length(p_docs, 1), 0);
  v_patch text;
  v_drop text[] := '{}';
  v_self text := regexp_replace(p_run_json, '(?<!\\\\)((?:\\\\\\\\)*)\\\\u0000', '\\1\\\\ue000', 'g');
BEGIN
  SELECT doc, message_count INTO v_thread FROM ${S}.threads WHERE id = p_thread FOR UPDATE;
  IF NOT FOUND THEN RETURN '!{"code":"no_thread"}'; END IF;
  SELECT doc, fence, status, thread_id INTO v_run FROM ${S}.runs WHERE run_id = p_run FOR UPDATE;
  IF NOT FOUND THEN RETURN '!{"code":"no_run"}'; END IF;
  IF p_fence <> v_run.fence THEN RETURN '!{"code":"stale_fence","fence":' || v_run.fence || '}'; END IF;
  v_stored := ${S}.json_hidden(v_run.doc);
  IF v_run.thread_id <> p_thread THEN
    RETURN '!{"code":"other_thread","threadId":' || regexp_replace((v_stored -> 'threadId')::text,
      '(?<!\\\\)((?:\\\\\\\\)*)\\\\ue000', '\\1\\\\u0000', 'g') || '}';
  END IF;
  IF p_version <> (v_stored ->> 'version')::bigint + 1 THEN
    RETURN '!{"code":"stale_version","stored":' || (v_stored ->> 'version') || '}';
  END IF;
  IF v_thread.message_count <> p_expected THEN
    RETURN '!{"code":"stale_append","actual":' || v_thread.message_count || '}';
  END IF;
  IF NOT (v_run.status = ANY (p_from)) THEN
    RETURN '!{"code":"invalid_transition","from":"' || v_run.status || '"}';
  END IF;
  IF v_count > 0 THEN
    INSERT INTO ${S}.messages (thread_id, seq, visibility, doc)
      SELECT p_thread, p_expected + u.n, u.visibility, left(u.doc, -1) || ',"createdAt":' || p_at || '}'
      FROM unnest(p_vis, p_docs) WITH ORDINALITY AS u(visibility, doc, n);
  END IF;
  UPDATE ${S}.runs SET status = p_status, doc = p_run_doc WHERE run_id = p_run;
  -- the thread's pointers after the checkpoint (pointersAfterCheckpoint), title, updatedAt
  v_tdoc := ${S}.json_hidden(v_thread.doc);
  v_patch := '"updatedAt":' || p_at;
  IF p_status = 'running' THEN v_patch := v_patch || ',"activeRunId":' || p_run_json;
  ELSIF p_status = 'waiting' THEN v_patch := v_patch || ',"openRunId":' || p_run_json;
  END IF;
  IF p_status IN ('waiting', 'done') AND (v_tdoc -> 'activeRunId')::text = v_self THEN
    v_drop := v_drop || 'activeRunId'::text;
  END IF;
  IF p_status IN ('running', 'done') AND (v_tdoc -> 'openRunId')::text = v_self THEN
    v_drop := v_drop || 'openRunId'::text;
  END IF;
  IF p_title IS NOT NULL AND v_tdoc -> 'title' IS NULL THEN v_patch := v_patch || ',"title":' || p_title; END IF;
  UPDATE ${S}.threads SET doc = ${S}.json_patch(v_thread.doc, '{' || v_patch || '}', v_drop),
    written = nextval('${S}.threads_written'), message_count = v_thread.message_count + v_count,
    state = coalesce(p_state, state)
    WHERE id = p_thread;
  RETURN NULL;
END
$fn$;

-- events appended, then a checkpoint committed (either may be absent: p_events_run / p_thread NULL):
-- 'ok', '!' + the append's refusal (nothing written), or '?' + the checkpoint's refusal (the events
-- written). Records its reply under p_req.
CREATE FUNCTION ${S}.tr_write(p_req text, p_retry boolean, p_test boolean,
  p_wake text, p_payload text, p_events_run text, p_events_fence bigint, p_first_seq bigint,
  p_bad integer, p_events text[],
  p_thread text, p_run text, p_run_json text, p_fence bigint, p_expected bigint, p_version bigint,
  p_status text, p_from text[], p_run_doc text, p_vis text[], p_docs text[], p_title text,
  p_state text) RETURNS text LANGUAGE plpgsql AS $fn$
DECLARE
  v_at bigint := ${S}.clock_ms(p_test);
  v_reply text;
BEGIN
  IF p_retry THEN
    SELECT reply INTO v_reply FROM ${S}.requests WHERE id = p_req;
    IF FOUND THEN RETURN v_reply; END IF;
  END IF;
  IF p_events_run IS NOT NULL THEN
    v_reply := ${S}.ev_append(v_at, p_wake, p_payload, p_events_run, p_events_fence, p_first_seq, p_bad, p_events);
    IF v_reply IS NOT NULL THEN RETURN v_reply; END IF;
  END IF;
  IF p_thread IS NOT NULL THEN
    v_reply := ${S}.tr_checkpoint_at(v_at, p_thread, p_run, p_run_json, p_fence, p_expected, p_version,
      p_status, p_from, p_run_doc, p_vis, p_docs, p_title, p_state);
    IF v_reply IS NOT NULL THEN
      IF p_events_run IS NULL THEN RETURN v_reply; END IF;
      v_reply := '?' || substr(v_reply, 2);
    END IF;
  END IF;
  v_reply := coalesce(v_reply, 'ok');
  IF p_req IS NOT NULL THEN INSERT INTO ${S}.requests (id, reply, at) VALUES (p_req, v_reply, v_at); END IF;
  RETURN v_reply;
END
$fn$;

-- createRunWithLease: the thread created when asked (p_thread_doc: its record without timestamps),
-- the run inserted with fence 1 and the lease, the thread's latestRunId; '{"at":…,"threadCreated":…}'
-- or '!' + the refusal (nothing written).
CREATE FUNCTION ${S}.tr_create_run_lease(p_req text, p_retry boolean, p_test boolean,
  p_thread text, p_thread_doc text, p_run text, p_run_json text, p_status text, p_run_doc text,
  p_owner text, p_lease_ms bigint) RETURNS text LANGUAGE plpgsql AS $fn$
DECLARE
  v_at bigint := ${S}.clock_ms(p_test);
  v_created boolean := false;
  v_doc text;
  v_reply text;
BEGIN
  IF p_retry THEN
    SELECT reply INTO v_reply FROM ${S}.requests WHERE id = p_req;
    IF FOUND THEN RETURN v_reply; END IF;
  END IF;
  IF p_thread_doc IS NOT NULL THEN
    INSERT INTO ${S}.threads (id, doc) VALUES (p_thread,
      left(p_thread_doc, -1) || ',"createdAt":' || v_at || ',"updatedAt":' || v_at || '}')
      ON CONFLICT DO NOTHING;
    v_created := FOUND;
  END IF;
  SELECT doc INTO v_doc FROM ${S}.threads WHERE id = p_thread FOR UPDATE;
  IF NOT FOUND THEN RETURN '!{"code":"no_thread"}'; END IF;
  INSERT INTO ${S}.runs (run_id, thread_id, status, doc, fence, lease_owner, lease_until)
    VALUES (p_run, p_thread, p_status, p_run_doc, 1, p_owner, v_at + p_lease_ms) ON CONFLICT DO NOTHING;
  IF NOT FOUND THEN
    -- not kept: a thread inserted above (uncommitted, so seen by no one) goes with the refusal
    IF v_created THEN DELETE FROM ${S}.threads WHERE id = p_thread; END IF;
    RETURN '!{"code":"run_exists"}';
  END IF;
  UPDATE ${S}.threads SET doc = ${S}.json_patch(v_doc, '{"latestRunId":' || p_run_json || ',"updatedAt":' || v_at || '}', '{}'),
    written = nextval('${S}.threads_written') WHERE id = p_thread;
  v_reply := '{"at":' || v_at || ',"threadCreated":' || v_created || '}';
  IF p_req IS NOT NULL THEN INSERT INTO ${S}.requests (id, reply, at) VALUES (p_req, v_reply, v_at); END IF;
  RETURN v_reply;
END
$fn$;

-- a run's lease: 'acquire' (free or expired: fence + 1), 'renew' (held by p_owner at p_fence) or
-- 'release'; the lease as '{"fence":…,"leaseUntil":…}', 'true'/'false' for release, or '!' + the refusal
CREATE FUNCTION ${S}.tr_lease(p_req text, p_retry boolean, p_test boolean, p_run text, p_op text,
  p_owner text, p_fence bigint, p_lease_ms bigint) RETURNS text LANGUAGE plpgsql AS $fn$
DECLARE
  v_at bigint := ${S}.clock_ms(p_test);
  v_row record;
  v_reply text;
BEGIN
  IF p_retry THEN
    SELECT reply INTO v_reply FROM ${S}.requests WHERE id = p_req;
    IF FOUND THEN RETURN v_reply; END IF;
  END IF;
  SELECT fence, lease_owner, lease_until INTO v_row FROM ${S}.runs WHERE run_id = p_run FOR UPDATE;
  IF NOT FOUND THEN RETURN CASE WHEN p_op = 'release' THEN 'false' ELSE '!{"code":"no_run"}' END; END IF;
  IF p_op = 'acquire' THEN
    IF v_row.lease_owner IS NOT NULL AND v_row.lease_until IS NOT NULL AND v_at <= v_row.lease_until THEN
      RETURN '!{"code":"busy","owner":' || to_json(v_row.lease_owner)::text || ',"leaseUntil":'
        || v_row.lease_until || ',"at":' || v_at || '}';
    END IF;
    UPDATE ${S}.runs SET fence = v_row.fence + 1, lease_owner = p_owner, lease_until = v_at + p_lease_ms
      WHERE run_id = p_run;
    v_reply := '{"fence":' || (v_row.fence + 1) || ',"leaseUntil":' || (v_at + p_lease_ms) || '}';
  ELSIF v_row.fence <> p_fence OR v_row.lease_owner IS DISTINCT FROM p_owner THEN
    RETURN CASE WHEN p_op = 'release' THEN 'false' ELSE '!{"code":"stale","fence":' || v_row.fence || '}' END;
  ELSIF p_op = 'renew' THEN
    UPDATE ${S}.runs SET lease_until = v_at + p_lease_ms WHERE run_id = p_run;
    v_reply := '{"fence":' || p_fence || ',"leaseUntil":' || (v_at + p_lease_ms) || '}';
  ELSE
    UPDATE ${S}.runs SET lease_owner = NULL, lease_until = NULL WHERE run_id = p_run;
    v_reply := 'true';
  END IF;
  IF p_req IS NOT NULL THEN INSERT INTO ${S}.requests (id, reply, at) VALUES (p_req, v_reply, v_at); END IF;
  RETURN v_reply;
END
$fn$;

-- a run's log finished ('finish': expires p_ttl_ms later, the run's inbox with it; p_sweep: expired
-- logs and inboxes dropped first) or its fence raised ('raise'): the log's last seq, or '!' + the refusal
CREATE FUNCTION ${S}.ev_log_write(p_req text, p_retry boolean, p_test boolean, p_run text, p_op text,
  p_fence bigint, p_ttl_ms bigint, p_sweep boolean, p_wake text, p_payload text)
  RETURNS text LANGUAGE plpgsql AS $fn$
DECLARE
  v_at bigint := ${S}.clock_ms(p_test);
  v_log record;
  v_reply text;
BEGIN
  IF p_retry THEN
    SELECT reply INTO v_reply FROM ${S}.requests WHERE id = p_req;
    IF FOUND THEN RETURN v_reply; END IF;
  END IF;
  SELECT last_seq, fence, expires_at INTO v_log FROM ${S}.event_logs WHERE run_id = p_run FOR UPDATE;
  IF NOT FOUND THEN
    INSERT INTO ${S}.event_logs (run_id) VALUES (p_run) ON CONFLICT DO NOTHING;
    SELECT last_seq, fence, expires_at INTO v_log FROM ${S}.event_logs WHERE run_id = p_run FOR UPDATE;
  END IF;
  IF v_log.expires_at IS NOT NULL AND v_at >= v_log.expires_at THEN
    DELETE FROM ${S}.events WHERE run_id = p_run;
    UPDATE ${S}.event_logs SET last_seq = 0, fence = 0, expires_at = NULL WHERE run_id = p_run;
    DELETE FROM ${S}.inboxes WHERE run_id = p_run AND expires_at <= v_at;
    v_log.last_seq := 0;
    v_log.fence := 0;
  END IF;
  IF p_fence < v_log.fence THEN RETURN '!{"code":"stale_fence","fence":' || v_log.fence || '}'; END IF;
  IF p_op = 'finish' THEN
    IF p_sweep THEN
      WITH gone AS (DELETE FROM ${S}.event_logs WHERE expires_at <= v_at RETURNING run_id)
        DELETE FROM ${S}.events e USING gone WHERE e.run_id = gone.run_id;
      DELETE FROM ${S}.inboxes WHERE expires_at <= v_at;
    END IF;
    UPDATE ${S}.event_logs SET fence = p_fence, expires_at = v_at + p_ttl_ms WHERE run_id = p_run;
    INSERT INTO ${S}.inboxes (run_id, expires_at) VALUES (p_run, v_at + p_ttl_ms)
      ON CONFLICT (run_id) DO UPDATE SET expires_at = EXCLUDED.expires_at;
    PERFORM pg_notify(p_wake, p_payload);
  ELSE
    UPDATE ${S}.event_logs SET fence = p_fence WHERE run_id = p_run;
  END IF;
  v_reply := v_log.last_seq::text;
  IF p_req IS NOT NULL THEN INSERT INTO ${S}.requests (id, reply, at) VALUES (p_req, v_reply, v_at); END IF;
  RETURN v_reply;
END
$fn$;
`;
