import { startClusterNode, startRedisCluster, waitForClusterOk } from '@awaken/testing';
import { Redis } from 'ioredis';
import { writeFileSync } from 'node:fs';
import { api, readSse, startAppProcess } from './test-support/app-process';

async function onNode<T>(port: number, use: (node: Redis) => Promise<T>): Promise<T> {
  const node = new Redis({ port, host: '127.0.0.1', lazyConnect: true, maxRetriesPerRequest: 0 });
  node.on('error', () => undefined);
  try { await node.connect(); return await use(node); } finally { node.disconnect(); }
}
const t0 = Date.now();
const log = (...a: unknown[]) => console.log(`[${((Date.now() - t0) / 1000).toFixed(1)}]`, ...a);
const cluster = await startRedisCluster({ masters: 3, replicasPerMaster: 1 });
for (const r of cluster.replicas) while (!(await onNode(r.port, (n) => n.info('replication'))).includes('master_link_status:up')) await new Promise((r) => setTimeout(r, 50));
log('cluster', cluster.nodes);
const env = { REDIS_CLUSTER_NODES: cluster.nodes.join(','), REDIS_WAIT_FOR_REPLICAS: process.env.NOWAIT ? '' : '1', REDIS_WAIT_TIMEOUT_MS: '2000', AWAKEN_REDIS_PREFIX: 'e2e-failover', AWAKEN_WORKERS: '30', AWAKEN_DEMO_DELAY_MS: '20', AWAKEN_LEASE_MS: '10000', AWAKEN_KEEPALIVE_MS: '500', LOG_LEVEL: 'debug' };
const [a, b] = await Promise.all([startAppProcess(env), startAppProcess(env)]);
log('apps');
const N = Number(process.env.RUNS ?? 50);
const responses = await Promise.all(Array.from({ length: N }, (_, i) => fetch(`${(i % 2 ? b : a).url}/v1/runs`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ agentId: 'demo', input: `send invoice fo-${i}` }) })));
const runIds = responses.map((r) => r.headers.get('x-run-id'));
log('posted', responses.map((r) => r.status).join(''));
const streams = responses.map((r) => readSse(r).then((x) => x.events.at(-1)?.status, (e) => `err ${e}`));
const sends = () => [a, b].flatMap((p) => p.logs.filter((l) => l.msg === 'demo: sending invoice'));
while (sends().length < N / 2) await new Promise((r) => setTimeout(r, 20));
const sizes = await Promise.all(cluster.masters.map((m) => onNode(m.port, (n) => n.dbsize())));
log('sizes', sizes);
const vi = sizes.indexOf(Math.max(...sizes));
const victim = cluster.masters[vi]!;
const replica = await (async () => { for (const r of cluster.replicas) if ((await onNode(r.port, (n) => n.info('replication'))).includes(`master_port:${victim.port}\r`)) return r; throw new Error('no replica'); })();
if (!process.env.NOKILL) { await victim.kill(); log('killed', victim.port); }
while (!(await onNode(replica.port, (n) => n.info('replication'))).includes('role:master')) await new Promise((r) => setTimeout(r, 100));
log('promoted');
const back = await startClusterNode({ port: victim.port, dir: victim.dir });
await waitForClusterOk(victim.port, 30_000);
log('rejoined');
const statusCount = async () => { const c: Record<string, number> = {}; for (const id of runIds) { const s = await fetch(`${a.url}/v1/runs/${id}`, { signal: AbortSignal.timeout(3000) }).then((r) => r.json()).then((j: any) => j.status ?? j.code ?? 'x', (e) => String(e.name));  c[s] = (c[s] ?? 0) + 1; } return c; };
for (let i = 0; i < 30; i++) {
  await new Promise((r) => setTimeout(r, 1000));
  const c = await statusCount();
  log('statuses', JSON.stringify(c), 'sends', sends().length);
  writeFileSync('/tmp/fail36/a.log', a.output()); writeFileSync('/tmp/fail36/b.log', b.output());
  if (c.done === N) break;
}
for (const [i, id] of runIds.entries()) {
  const run: any = await fetch(`${a.url}/v1/runs/${id}`).then((r) => r.json());
  if (run.status === 'done') continue;
  const n = sends().filter((l) => l.invoice === `fo-${i}`).length;
  const ev = await fetch(`${a.url}/v1/runs/${id}/events`, { headers: { 'last-event-id': '0' }, signal: AbortSignal.timeout(2000) }).then((r) => readSse(r)).catch((e) => ({ events: [String(e)] }));
  log(`fo-${i}`, id, run.status, 'sent', n, JSON.stringify(run.waiting?.tickets?.map((t: any) => [t.action, t.message])), JSON.stringify(run.termination), (ev.events as any[]).map((e) => e.type ?? e).join(','));
}
log('streams', JSON.stringify(await Promise.race([Promise.all(streams), new Promise((r) => setTimeout(() => r('timeout'), 2000))])));
writeFileSync('/tmp/fail36/a.log', a.output()); writeFileSync('/tmp/fail36/b.log', b.output());
await Promise.all([a.kill(), b.kill()]);
await cluster.stop(); await back.stop();
log('end');
process.exit(0);
