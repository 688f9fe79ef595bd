/**
 * Migration 7: thread branches by reference. A branch row points at its source (`branch_of`, the
 * source's key) and the last source message it shares (`branch_seq`); its `message_count` starts at
 * `branch_seq`, so appends continue the seqs, and its own messages are rows of its own. The foreign
 * key keeps a source with branches from being deleted (the store refuses first, with `conflict`);
 * the index serves `listBranches` without reading other threads. `S` is the quoted schema name.
 */
export const MIGRATION_0007 = (S: string): string => `
ALTER TABLE ${S}.threads
  ADD COLUMN branch_of text REFERENCES ${S}.threads (id),
  ADD COLUMN branch_seq bigint;
CREATE INDEX threads_branches ON ${S}.threads (branch_of, pos) WHERE branch_of IS NOT NULL;
`;
