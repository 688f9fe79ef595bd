/**
 * A separate Node process for the multi-process tests, started with `fork(..., { execArgv: ['--import',
 * 'tsx'] })`. Its mode comes from argv; it reports through `process.send`.
 *   claim <url> <schema> <workerId> <total> <workers>  once `workers` processes are ready (a barrier
 *                          on the test_barrier table), claim and ack until `total` dispatches are acked;
 *                          reports the ids it claimed, then exits
 *   hold <url> <schema> <workerId> <count> <leaseMs>    claims `count` dispatches, reports them and
 *                          stays alive holding their leases (the test kills it with SIGKILL)
 */
import { PostgresMailboxStore } from '../src/postgres-mailbox-store';

const [mode, url = '', schema = '', name = '', amount = '0', extra = '1'] = process.argv.slice(2);

const report = (result: unknown) =>
  new Promise<void>((resolve) => process.send?.({ result }, () => resolve()));

async function claimLoop(store: PostgresMailboxStore): Promise<string[]> {
  const { pool } = store.db;
  const total = Number(amount);
  const claimed: string[] = [];
  // start together: a process forked late on a loaded machine would otherwise find nothing left
  await pool.query(`UPDATE "${schema}".test_barrier SET ready = ready + 1`);
  for (;;) {
    const { rows } = await pool.query(`SELECT ready FROM "${schema}".test_barrier`);
    if (Number(rows[0]?.ready) >= Number(extra)) break;
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  const acked = async () =>
    Number(
      (await pool.query(`SELECT count(*) AS n FROM "${schema}".dispatches WHERE status = 'acked'`)).rows[0]
        ?.n,
    );
  while ((await acked()) < total) {
    const batch = await store.claim({ workerId: name, limit: 10, leaseMs: 30_000 });
    if (batch.length === 0) await store.waitForWork({ timeoutMs: 100 });
    for (const dispatch of batch) {
      claimed.push(dispatch.dispatchId);
      await store.ack({ dispatchId: dispatch.dispatchId, claimToken: dispatch.claimToken ?? '' });
    }
  }
  return claimed;
}

async function main(): Promise<void> {
  const store = new PostgresMailboxStore({ postgres: url, schema });
  if (mode === 'claim') {
    const claimed = await claimLoop(store);
    await store.close();
    await report(claimed);
    return;
  }
  const held = await store.claim({ workerId: name, limit: Number(amount), leaseMs: Number(extra) });
  await report(held.map((dispatch) => dispatch.dispatchId));
  setInterval(() => undefined, 60_000); // hold on until killed
}

main().catch((error: unknown) => {
  process.send?.({ error: String(error instanceof Error ? error.stack : error) });
  process.exitCode = 1;
});
