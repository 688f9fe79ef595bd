/**
 * Migration 8: the remaining TypeScript transactions of a turn as server-side functions, one call in
 * one round trip each (sent as a named prepared statement, its own transaction): a thread created,
 * messages appended, a run created, a control put into a run's inbox and controls removed from it.
 * Like migrations 5 and 6 each reads the store clock once, answers a re-sent request from its
 * recorded reply, checks before it writes (a refusal is returned as `!` + JSON, nothing written, no
 * reply recorded: a re-sent refusal is checked again) and records its reply with its writes. Lock
 * order as before: a thread, then its run; a run's inbox row alone. `S` is the quoted schema.
 */
export const MIGRATION_0008 = (S: string): string => `
-- createThread: p_doc is the record without its timestamps; '{"at":…}' or '!{"code":"exists"}'
CREATE FUNCTION ${S}.tr_create_thread(p_req text, p_retry boolean, p_test boolean, p_thread text,
  p_doc text) RETURNS text LANGUAGE plpgsql AS $fn$
DECLARE
  v_at bigint := ${S}.clock_ms(p_test);
  v_reply text;
BEGIN
  IF p_retry THEN
    SELECT reply INTO v_reply FROM ${S}.requests WHERE id = p_req;
    IF FOUND THEN RETURN v_reply; END IF;
  END IF;
  INSERT INTO ${S}.threads (id, doc) VALUES (p_thread,
    left(p_doc, -1) || ',"createdAt":' || v_at || ',"updatedAt":' || v_at || '}') ON CONFLICT DO NOTHING;
  IF NOT FOUND THEN RETURN '!{"code":"exists"}'; END IF;
  v_reply := '{"at":' || v_at || '}';
  IF p_req IS NOT NULL THEN INSERT INTO ${S}.requests (id, reply, at) VALUES (p_req, v_reply, v_at); END IF;
  RETURN v_reply;
END
$fn$;

-- appendMessages: the messages (p_docs: records without their createdAt) after p_expected, the
-- thread's title (p_title, JSON, when it has none), updatedAt and count; '{"at":…}' or the refusal
CREATE FUNCTION ${S}.tr_append_messages(p_req text, p_retry boolean, p_test boolean, p_thread text,
  p_expected bigint, p_vis text[], p_docs text[], p_title text) RETURNS text LANGUAGE plpgsql AS $fn$
DECLARE
  v_at bigint := ${S}.clock_ms(p_test);
  v_thread record;
  v_count integer := coalesce(array_length(p_docs, 1), 0);
  v_patch text;
  v_reply text;
BEGIN
  IF p_retry THEN
    SELECT reply INTO v_reply FROM ${S}.requests WHERE id = p_req;
    IF FOUND THEN RETURN v_reply; END IF;
  END IF;
  SELECT doc, message_count INTO v_thread FROM ${S}.threads WHERE id = p_thread FOR UPDATE;
  IF NOT FOUND THEN RETURN '!{"code":"no_thread"}'; END IF;
  IF v_thread.message_count <> p_expected THEN
    RETURN '!{"code":"stale_append","actual":' || v_thread.message_count || '}';
  END IF;
  IF v_count > 0 THEN
    INSERT INTO ${S}.messages (thread_id, seq, visibility, doc)
      SELECT p_thread, p_expected + u.n, u.visibility, left(u.doc, -1) || ',"createdAt":' || v_at || '}'
      FROM unnest(p_vis, p_docs) WITH ORDINALITY AS u(visibility, doc, n);
  END IF;
  v_patch := '"updatedAt":' || v_at;
  IF p_title IS NOT NULL AND ${S}.json_hidden(v_thread.doc) -> 'title' IS NULL THEN
    v_patch := v_patch || ',"title":' || p_title;
  END IF;
  UPDATE ${S}.threads SET doc = ${S}.json_patch(v_thread.doc, '{' || v_patch || '}', '{}'),
    written = nextval('${S}.threads_written'), message_count = v_thread.message_count + v_count
    WHERE id = p_thread;
  v_reply := '{"at":' || v_at || '}';
  IF p_req IS NOT NULL THEN INSERT INTO ${S}.requests (id, reply, at) VALUES (p_req, v_reply, v_at); END IF;
  RETURN v_reply;
END
$fn$;

-- createRun: the run inserted (fence 0, no lease), the thread's latestRunId and updatedAt;
-- 'ok' or '!' + the refusal (no_thread, run_exists)
CREATE FUNCTION ${S}.tr_create_run(p_req text, p_retry boolean, p_test boolean, p_thread text,
  p_run text, p_run_json text, p_status text, p_run_doc text) RETURNS text LANGUAGE plpgsql AS $fn$
DECLARE
  v_at bigint := ${S}.clock_ms(p_test);
  v_doc text;
  v_reply text;
BEGIN
  IF p_retry THEN
    SELECT reply INTO v_reply FROM ${S}.requests WHERE id = p_req;
    IF FOUND THEN RETURN v_reply; END IF;
  END IF;
  SELECT doc INTO v_doc FROM ${S}.threads WHERE id = p_thread FOR UPDATE;
  IF NOT FOUND THEN RETURN '!{"code":"no_thread"}'; END IF;
  INSERT INTO ${S}.runs (run_id, thread_id, status, doc) VALUES (p_run, p_thread, p_status, p_run_doc)
    ON CONFLICT DO NOTHING;
  IF NOT FOUND THEN RETURN '!{"code":"run_exists"}'; END IF;
  UPDATE ${S}.threads SET doc = ${S}.json_patch(v_doc, '{"latestRunId":' || p_run_json || ',"updatedAt":' || v_at || '}', '{}'),
    written = nextval('${S}.threads_written') WHERE id = p_thread;
  v_reply := 'ok';
  IF p_req IS NOT NULL THEN INSERT INTO ${S}.requests (id, reply, at) VALUES (p_req, v_reply, v_at); END IF;
  RETURN v_reply;
END
$fn$;

-- locks (creating) a run's inbox row; an inbox past its expiry is emptied first
CREATE FUNCTION ${S}.ib_lock(p_at bigint, p_run text) RETURNS void LANGUAGE plpgsql AS $fn$
DECLARE
  v_expires bigint;
BEGIN
  INSERT INTO ${S}.inboxes (run_id) VALUES (p_run)
    ON CONFLICT (run_id) DO UPDATE SET run_id = EXCLUDED.run_id RETURNING expires_at INTO v_expires;
  IF v_expires IS NOT NULL AND p_at >= v_expires THEN
    DELETE FROM ${S}.controls WHERE run_id = p_run;
    UPDATE ${S}.inboxes SET expires_at = NULL WHERE run_id = p_run;
  END IF;
END
$fn$;

-- put: 'stored' (NOTIFY p_wake), '=' + the entry stored earlier under p_id (the caller tells a
-- re-sent put from a reused id), or '!' + the pending decision for p_target
CREATE FUNCTION ${S}.ib_put(p_req text, p_retry boolean, p_test boolean, p_wake text, p_payload text,
  p_run text, p_id text, p_kind text, p_target text, p_doc text) RETURNS text LANGUAGE plpgsql AS $fn$
DECLARE
  v_at bigint := ${S}.clock_ms(p_test);
  v_doc text;
  v_reply text;
BEGIN
  IF p_retry THEN
    SELECT reply INTO v_reply FROM ${S}.requests WHERE id = p_req;
    IF FOUND THEN RETURN v_reply; END IF;
  END IF;
  PERFORM ${S}.ib_lock(v_at, p_run);
  SELECT doc INTO v_doc FROM ${S}.controls WHERE run_id = p_run AND id = p_id;
  IF FOUND THEN RETURN '=' || v_doc; END IF;
  IF p_target IS NOT NULL THEN
    SELECT doc INTO v_doc FROM ${S}.controls WHERE run_id = p_run AND target = p_target;
    IF FOUND THEN RETURN '!' || v_doc; END IF;
  END IF;
  INSERT INTO ${S}.controls (run_id, id, kind, target, doc) VALUES (p_run, p_id, p_kind, p_target, p_doc);
  PERFORM pg_notify(p_wake, p_payload);
  v_reply := 'stored';
  IF p_req IS NOT NULL THEN INSERT INTO ${S}.requests (id, reply, at) VALUES (p_req, v_reply, v_at); END IF;
  RETURN v_reply;
END
$fn$;

-- remove: the controls p_ids of the run's inbox deleted (those absent ignored); 'ok'
CREATE FUNCTION ${S}.ib_remove(p_req text, p_retry boolean, p_test boolean, p_run text, p_ids text[])
  RETURNS text LANGUAGE plpgsql AS $fn$
DECLARE
  v_at bigint := ${S}.clock_ms(p_test);
  v_reply text;
BEGIN
  IF p_retry THEN
    SELECT reply INTO v_reply FROM ${S}.requests WHERE id = p_req;
    IF FOUND THEN RETURN v_reply; END IF;
  END IF;
  PERFORM ${S}.ib_lock(v_at, p_run);
  DELETE FROM ${S}.controls WHERE run_id = p_run AND id = ANY (p_ids);
  v_reply := 'ok';
  IF p_req IS NOT NULL THEN INSERT INTO ${S}.requests (id, reply, at) VALUES (p_req, v_reply, v_at); END IF;
  RETURN v_reply;
END
$fn$;
`;
