/**
 * Redis time per item of the store's enqueue, claim and ack only ((3) of mailbox-redis.ts, without
 * BullMQ), repeated BENCH_REPEATS times on one redis-server (flushed each time); prints the median
 * and range of each, then the commands each operation ran (median run by total). Redis `usec` from
 * INFO commandstats is time inside Redis, so it stays far steadier than rates on a loaded machine:
 * use it to compare two versions of the scripts.
 * Run with `pnpm --filter @awaken/bench bench:mailbox-redis-ops`.
 */
import { startRedisServer } from '@awaken/testing';
import { type OpCosts, storeOperationCosts } from './mailbox-redis-costs';
import { adminClient } from './mailbox-redis-cycles';

const ITEMS = Number(process.env.BENCH_OP_ITEMS ?? 10_000);
const REPEATS = Number(process.env.BENCH_REPEATS ?? 7);
const OPERATIONS = ['enqueue', 'claim', 'ack'] as const;

type Ours = OpCosts['ours'];

const total = (ops: Ours, pick: (cost: Ours['ack']) => number) =>
  OPERATIONS.reduce((sum, name) => sum + pick(ops[name]), 0);

function summary(values: number[]): string {
  const sorted = [...values].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
  return `${median.toFixed(1)} (${sorted[0]?.toFixed(1)}–${sorted.at(-1)?.toFixed(1)})`;
}

const server = await startRedisServer();
const admin = adminClient(server.url);
try {
  const runs: Ours[] = [];
  for (let repeat = 0; repeat < REPEATS; repeat += 1) {
    runs.push(await storeOperationCosts(server.url, admin, ITEMS));
  }
  console.log(`${REPEATS} runs of ${ITEMS} items each; median (min–max)\n`);
  console.log('| operation | Redis µs per item | commands inside scripts per item |');
  console.log('|---|---|---|');
  for (const name of OPERATIONS) {
    const us = summary(runs.map((ops) => ops[name].usPerItem));
    console.log(`| ${name} | ${us} | ${summary(runs.map((ops) => ops[name].innerPerItem))} |`);
  }
  const totals = runs.map((ops) => total(ops, (cost) => cost.usPerItem));
  const inner = runs.map((ops) => total(ops, (cost) => cost.innerPerItem));
  console.log(`| total | ${summary(totals)} | ${summary(inner)} |`);
  const median = [...runs].sort(
    (a, b) => total(a, (cost) => cost.usPerItem) - total(b, (cost) => cost.usPerItem),
  )[Math.floor(runs.length / 2)] as Ours;
  for (const name of OPERATIONS) {
    const parts = [...(median[name].byCommand ?? [])]
      .sort(([, a], [, b]) => b.us - a.us)
      .map(([command, stat]) => `${command} ${stat.calls.toFixed(2)}×/${stat.us.toFixed(1)}µs`);
    console.log(`\n${name}: ${parts.join(', ')}`);
  }
} finally {
  admin.disconnect();
  await server.stop();
}
