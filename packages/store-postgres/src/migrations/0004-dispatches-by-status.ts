/**
 * Migration 4: the index the mailbox's tenant-wide view reads — `countDispatches` (an index-only
 * `GROUP BY status`) and `listDispatchesByStatus` (every dispatch of one status, newest first) — so
 * the console never reads dispatches thread by thread. `S` is the quoted schema.
 */
export const MIGRATION_0004 = (S: string): string => `
CREATE INDEX dispatches_by_status ON ${S}.dispatches (status, seq DESC);
`;
