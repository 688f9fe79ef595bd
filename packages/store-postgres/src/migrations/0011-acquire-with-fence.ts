/**
 * Migration 11: `tr_lease_fence`, a run's lease taken, its event log's fence raised to the new one
 * and its record read, in one call (the contract's `AcquireWithFence`): one round trip where an
 * activation loading a stored run made three (`tr_lease`, `ev_log_write` 'raise', the run's read).
 * The refusals come first and write nothing: an unknown run, a live lease of another holder, a live
 * log that has seen a higher fence than the one this lease gets. Then `tr_lease` and `ev_log_write`
 * (migration 6) run unchanged, each without a reply row of its own; this call records one reply
 * (the lease and the seq, the run's record read again when a re-sent call finds it). Locks the event
 * log's row before the run's, the order of every run write (ev_append, then tr_checkpoint_at): a
 * writer still running on an expired lease would otherwise deadlock with it (broken by PostgreSQL
 * only after deadlock_timeout). A log row it had to insert for that is deleted again on a refusal.
 * Reply: '{"fence":…,"leaseUntil":…}' newline seq newline the run's doc, or '!' + the refusal.
 */
export const MIGRATION_0011 = (S: string) => `
CREATE OR REPLACE FUNCTION ${S}.tr_lease_fence(p_req text, p_retry boolean, p_test boolean, p_run text,
  p_owner text, p_lease_ms bigint) RETURNS text LANGUAGE plpgsql AS $fn$
DECLARE
  v_at bigint := ${S}.clock_ms(p_test);
  v_row record;
  v_log record;
  v_lease text;
  v_seq text;
  v_reply text;
  v_inserted boolean := false;
BEGIN
  IF p_retry THEN
    SELECT reply INTO v_reply FROM ${S}.requests WHERE id = p_req;
    IF FOUND THEN
      RETURN v_reply || E'\\n' || (SELECT doc FROM ${S}.runs WHERE run_id = p_run);
    END IF;
  END IF;
  -- the log's row first (inserted if missing, as ev_append does), then the run's
  INSERT INTO ${S}.event_logs (run_id) VALUES (p_run) ON CONFLICT DO NOTHING RETURNING true INTO v_inserted;
  v_inserted := coalesce(v_inserted, false);
  SELECT fence, expires_at INTO v_log FROM ${S}.event_logs WHERE run_id = p_run FOR UPDATE;
  SELECT fence, lease_owner, lease_until INTO v_row FROM ${S}.runs WHERE run_id = p_run FOR UPDATE;
  IF NOT FOUND THEN
    v_reply := '!{"code":"no_run"}';
  ELSIF v_row.lease_owner IS NOT NULL AND v_row.lease_until IS NOT NULL AND v_at <= v_row.lease_until THEN
    v_reply := '!{"code":"busy","owner":' || to_json(v_row.lease_owner)::text || ',"leaseUntil":'
      || v_row.lease_until || ',"at":' || v_at || '}';
  ELSIF (v_log.expires_at IS NULL OR v_at < v_log.expires_at) AND v_row.fence + 1 < v_log.fence THEN
    v_reply := '!{"code":"stale_fence","fence":' || v_log.fence || ',"given":' || (v_row.fence + 1) || '}';
  END IF;
  IF v_reply IS NOT NULL THEN
    -- a refusal writes nothing: not even the log row this call inserted
    IF v_inserted THEN DELETE FROM ${S}.event_logs WHERE run_id = p_run; END IF;
    RETURN v_reply;
  END IF;
  v_lease := ${S}.tr_lease(NULL, false, p_test, p_run, 'acquire', p_owner, 0, p_lease_ms);
  IF left(v_lease, 1) = '!' THEN RETURN v_lease; END IF;
  v_seq := ${S}.ev_log_write(NULL, false, p_test, p_run, 'raise', v_row.fence + 1, 0, false, NULL, NULL);
  IF left(v_seq, 1) = '!' THEN RAISE EXCEPTION 'tr_lease_fence: the log refused fence %: %', v_row.fence + 1, v_seq; END IF;
  v_reply := v_lease || E'\\n' || v_seq;
  IF p_req IS NOT NULL THEN INSERT INTO ${S}.requests (id, reply, at) VALUES (p_req, v_reply, v_at); END IF;
  RETURN v_reply || E'\\n' || (SELECT doc FROM ${S}.runs WHERE run_id = p_run);
END
$fn$;
`;
