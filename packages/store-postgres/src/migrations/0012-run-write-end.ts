/**
 * Migration 12: `tr_write_end`, the joint checkpoint write with the run's end (CheckpointEnd in the
 * contract) in one call, one transaction: the events before the checkpoint and the run's last events
 * checked and appended as one append (`ev_append`: a refusal writes nothing, `!` + JSON), the
 * checkpoint committed (`tr_checkpoint_at`), and only when it is: the log finished (`p_finish`, as
 * `ev_log_write`'s 'finish' with the writer's fence: expires p_ttl_ms later, the run's inbox with
 * it; p_sweep: expired logs and inboxes dropped first). A refused checkpoint takes the last
 * `p_end_count` events back out of the log (appended in this transaction only, seen by no one) and
 * answers `?` + JSON, the events before it written, the log open; with no events before it, the log's
 * fence goes back to where it was too (raised by the last events alone, as an empty append raises
 * nothing). Records its reply under p_req like
 * `tr_write`; same lock order (the event log row, then the thread, then the run). `S` is the quoted
 * schema.
 */
export const MIGRATION_0012 = (S: string): string => `
CREATE OR REPLACE FUNCTION ${S}.tr_write_end(p_req text, p_retry boolean, p_test boolean,
  p_wake text, p_payload text, p_events_run text, p_events_fence bigint, p_first_seq bigint,
  p_bad integer, p_events text[],
  p_thread text, p_run text, p_run_json text, p_fence bigint, p_expected bigint, p_version bigint,
  p_status text, p_from text[], p_run_doc text, p_vis text[], p_docs text[], p_title text,
  p_state text, p_end_count integer, p_finish boolean, p_ttl_ms bigint, p_sweep boolean)
  RETURNS text LANGUAGE plpgsql AS $fn$
DECLARE
  v_at bigint := ${S}.clock_ms(p_test);
  v_reply text;
  v_alone boolean := p_end_count > 0 AND p_end_count = coalesce(array_length(p_events, 1), 0);
  v_fence bigint := 0;
BEGIN
  IF p_retry THEN
    SELECT reply INTO v_reply FROM ${S}.requests WHERE id = p_req;
    IF FOUND THEN RETURN v_reply; END IF;
  END IF;
  IF v_alone THEN
    -- the fence to put back if the checkpoint is refused: the last events alone raise it (an expired
    -- log counts as none, as ev_append resets it)
    SELECT CASE WHEN expires_at IS NOT NULL AND v_at >= expires_at THEN 0 ELSE fence END INTO v_fence
      FROM ${S}.event_logs WHERE run_id = p_events_run FOR UPDATE;
    v_fence := coalesce(v_fence, 0);
  END IF;
  v_reply := ${S}.ev_append(v_at, p_wake, p_payload, p_events_run, p_events_fence, p_first_seq, p_bad, p_events);
  IF v_reply IS NOT NULL THEN RETURN v_reply; END IF;
  v_reply := ${S}.tr_checkpoint_at(v_at, p_thread, p_run, p_run_json, p_fence, p_expected, p_version,
    p_status, p_from, p_run_doc, p_vis, p_docs, p_title, p_state);
  IF v_reply IS NOT NULL THEN
    IF p_end_count > 0 THEN
      DELETE FROM ${S}.events WHERE run_id = p_events_run
        AND seq >= p_first_seq + coalesce(array_length(p_events, 1), 0) - p_end_count;
      UPDATE ${S}.event_logs SET last_seq = last_seq - p_end_count,
        fence = CASE WHEN v_alone THEN v_fence ELSE fence END WHERE run_id = p_events_run;
    END IF;
    v_reply := '?' || substr(v_reply, 2);
  ELSE
    IF p_finish THEN
      IF p_sweep THEN
        WITH gone AS (DELETE FROM ${S}.event_logs WHERE expires_at <= v_at RETURNING run_id)
          DELETE FROM ${S}.events e USING gone WHERE e.run_id = gone.run_id;
        DELETE FROM ${S}.inboxes WHERE expires_at <= v_at;
      END IF;
      UPDATE ${S}.event_logs SET fence = greatest(fence, p_events_fence), expires_at = v_at + p_ttl_ms
        WHERE run_id = p_events_run;
      INSERT INTO ${S}.inboxes (run_id, expires_at) VALUES (p_events_run, v_at + p_ttl_ms)
        ON CONFLICT (run_id) DO UPDATE SET expires_at = EXCLUDED.expires_at;
      PERFORM pg_notify(p_wake, p_payload);
    END IF;
    v_reply := 'ok';
  END IF;
  IF p_req IS NOT NULL THEN INSERT INTO ${S}.requests (id, reply, at) VALUES (p_req, v_reply, v_at); END IF;
  RETURN v_reply;
END
$fn$;
`;
