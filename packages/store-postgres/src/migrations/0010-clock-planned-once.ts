/**
 * Migration 10: the store clock without a parse and plan at every call. `clock_ms` (migration 5) was
 * a LANGUAGE sql function whose body reads `test_clock` in a sub-select, so PostgreSQL could not
 * inline it: every call ran it through the SQL-function executor, which parses, analyses and plans
 * the body afresh for each transaction (a PL/pgSQL simple expression's state lives one
 * transaction). Every store function reads the clock once, first, so each mailbox, run and inbox
 * write paid a full parse + plan: ~20% of the server's CPU in an enqueue → claim → ack cycle
 * (perf of the backend, tooling/bench/results/mailbox-postgres-issue-37-s9.md). As PL/pgSQL its one
 * statement is planned once per connection. Same argument, same result, same volatility (the
 * database clock, or the frozen test clock when `p_test`).
 * `S` is the quoted schema.
 */
export const MIGRATION_0010 = (S: string): string => `
CREATE OR REPLACE FUNCTION ${S}.clock_ms(p_test boolean) RETURNS bigint LANGUAGE plpgsql VOLATILE AS $fn$
BEGIN
  IF p_test THEN
    RETURN coalesce((SELECT ms FROM ${S}.test_clock), (floor(extract(epoch from clock_timestamp()) * 1000))::bigint);
  END IF;
  RETURN (floor(extract(epoch from clock_timestamp()) * 1000))::bigint;
END
$fn$;
`;
