/**
 * Migration 2: the index `listRunsByStatus` reads (every run of one status, newest first), so the
 * console's approval inbox lists waiting runs without scanning the others. `S` is the quoted schema.
 */
export const MIGRATION_0002 = (S: string): string => `
CREATE INDEX runs_by_status ON ${S}.runs (status, pos DESC);
`;
