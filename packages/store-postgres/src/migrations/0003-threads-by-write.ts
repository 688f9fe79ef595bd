/**
 * Migration 3: the `newest` order of `listThreads` (the thread written last first, a console's
 * thread list). `written` is a sequence number every write of the thread row takes anew; the index
 * serves a page without reading other threads. Threads that exist already are numbered in the order
 * of their `updatedAt` (then creation). `S` is the quoted schema name.
 */
export const MIGRATION_0003 = (S: string): string => `
CREATE SEQUENCE ${S}.threads_written;
ALTER TABLE ${S}.threads ADD COLUMN written bigint;
UPDATE ${S}.threads t SET written = o.n
  FROM (SELECT id, row_number() OVER (ORDER BY (doc::json->>'updatedAt')::bigint, pos) AS n FROM ${S}.threads) o
  WHERE t.id = o.id;
SELECT setval('${S}.threads_written', (SELECT count(*) FROM ${S}.threads) + 1, false);
ALTER TABLE ${S}.threads
  ALTER COLUMN written SET DEFAULT nextval('${S}.threads_written'),
  ALTER COLUMN written SET NOT NULL;
CREATE UNIQUE INDEX threads_by_write ON ${S}.threads (written DESC);
`;
