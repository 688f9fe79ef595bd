/**
 * Migration 1: every table of the four stores. `S` is the quoted schema name. Times are bigint
 * milliseconds on the database clock; documents are the records' JSON text (text, not jsonb: jsonb
 * cannot hold `\u0000`, which ids and values may contain); id columns hold `key(id)` (see keys.ts).
 */
export const MIGRATION_0001 = (S: string): string => `
CREATE TABLE ${S}.requests (
  id text PRIMARY KEY,
  reply text NOT NULL,
  at bigint NOT NULL
);
CREATE INDEX requests_at ON ${S}.requests (at);

CREATE TABLE ${S}.test_clock (
  singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
  ms bigint NOT NULL
);

CREATE TABLE ${S}.threads (
  id text PRIMARY KEY,
  pos bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
  doc text NOT NULL,
  message_count bigint NOT NULL DEFAULT 0,
  state text NOT NULL DEFAULT '{}'
);
CREATE TABLE ${S}.messages (
  thread_id text NOT NULL REFERENCES ${S}.threads (id) ON DELETE CASCADE,
  seq bigint NOT NULL,
  visibility text NOT NULL,
  doc text NOT NULL,
  PRIMARY KEY (thread_id, seq)
);
CREATE TABLE ${S}.runs (
  run_id text PRIMARY KEY,
  thread_id text NOT NULL REFERENCES ${S}.threads (id) ON DELETE CASCADE,
  pos bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
  status text NOT NULL,
  doc text NOT NULL,
  fence bigint NOT NULL DEFAULT 0,
  lease_owner text,
  lease_until bigint
);
CREATE INDEX runs_by_thread ON ${S}.runs (thread_id, pos DESC);

CREATE TABLE ${S}.mailbox_threads (
  thread_id text PRIMARY KEY,
  epoch bigint NOT NULL DEFAULT 0,
  claimed_id text
);
CREATE INDEX mailbox_threads_claimed ON ${S}.mailbox_threads (thread_id) WHERE claimed_id IS NOT NULL;
CREATE TABLE ${S}.dispatches (
  dispatch_id text PRIMARY KEY,
  thread_id text NOT NULL,
  seq bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
  status text NOT NULL,
  priority integer NOT NULL,
  available_at bigint NOT NULL,
  lease_until bigint,
  updated_at bigint NOT NULL,
  dedupe_key text,
  doc text NOT NULL
);
CREATE INDEX dispatches_ready ON ${S}.dispatches (priority, seq) WHERE status = 'queued';
CREATE INDEX dispatches_by_thread ON ${S}.dispatches (thread_id, seq);
CREATE INDEX dispatches_thread_queue ON ${S}.dispatches (thread_id, priority, seq) WHERE status = 'queued';
CREATE INDEX dispatches_leases ON ${S}.dispatches (lease_until, seq) WHERE status = 'claimed';
CREATE INDEX dispatches_terminal ON ${S}.dispatches (updated_at)
  WHERE status IN ('acked', 'cancelled', 'superseded', 'dead_letter');
CREATE UNIQUE INDEX dispatches_live_dedupe ON ${S}.dispatches (thread_id, dedupe_key)
  WHERE dedupe_key IS NOT NULL AND status IN ('queued', 'claimed');

CREATE TABLE ${S}.event_logs (
  run_id text PRIMARY KEY,
  last_seq bigint NOT NULL DEFAULT 0,
  fence bigint NOT NULL DEFAULT 0,
  expires_at bigint
);
CREATE INDEX event_logs_expiry ON ${S}.event_logs (expires_at) WHERE expires_at IS NOT NULL;
CREATE TABLE ${S}.events (
  run_id text NOT NULL REFERENCES ${S}.event_logs (run_id) ON DELETE CASCADE,
  seq bigint NOT NULL,
  doc text NOT NULL,
  PRIMARY KEY (run_id, seq)
);

CREATE TABLE ${S}.inboxes (
  run_id text PRIMARY KEY,
  expires_at bigint
);
CREATE INDEX inboxes_expiry ON ${S}.inboxes (expires_at) WHERE expires_at IS NOT NULL;
CREATE TABLE ${S}.controls (
  run_id text NOT NULL REFERENCES ${S}.inboxes (run_id) ON DELETE CASCADE,
  id text NOT NULL,
  pos bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
  kind text NOT NULL,
  target text,
  doc text NOT NULL,
  PRIMARY KEY (run_id, id)
);
CREATE UNIQUE INDEX controls_pending_target ON ${S}.controls (run_id, target) WHERE target IS NOT NULL;
`;
