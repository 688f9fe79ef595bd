import type pg from 'pg';

/** How long a deadlock victim waits at most for the transaction it deadlocked with. */
const MAX_WAIT_MS = 5_000;
const POLL_MS = 5;

/**
 * The backend a deadlock victim was waiting for, read from PostgreSQL's error detail ("Process P
 * waits for ShareLock on transaction X; blocked by process Q."): the line of the victim's own
 * process `pid` names the transaction and the process it waited for.
 */
export function deadlockBlocker(error: unknown, pid: number): { pid: number; xid: string } | undefined {
  const detail = (error as { detail?: unknown } | null)?.detail;
  if (typeof detail !== 'string') return undefined;
  for (const match of detail.matchAll(
    /Process (\d+) waits for .*? on transaction (\d+); blocked by process (\d+)/g,
  )) {
    if (Number(match[1]) === pid) return { pid: Number(match[3]), xid: String(match[2]) };
  }
  return undefined;
}

/**
 * After a deadlock, waits until the transaction the victim waited for has ended (its backend no
 * longer runs transaction `xid`), so the victim's re-run cannot take the rows that transaction was
 * about to be granted and deadlock with it again (a re-run sent at once often wins that race).
 * Polled on the victim's own connection (rolled back), so it needs no other; bounded. A blocker it
 * cannot read (no detail, or a role that may not see other sessions) leaves only the random pause.
 */
export async function waitForBlocker(client: pg.ClientBase, error: unknown): Promise<void> {
  const pid = (client as unknown as { processID?: unknown }).processID;
  if (typeof pid !== 'number') return;
  const blocker = deadlockBlocker(error, pid);
  if (blocker === undefined) return;
  const until = Date.now() + MAX_WAIT_MS;
  while (Date.now() < until) {
    const { rows } = await client.query<{ running: boolean }>(
      'SELECT EXISTS (SELECT 1 FROM pg_stat_activity WHERE pid = $1 AND backend_xid::text = $2) AS running',
      [blocker.pid, blocker.xid],
    );
    if (rows[0]?.running !== true) return;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}
