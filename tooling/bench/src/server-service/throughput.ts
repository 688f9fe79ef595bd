import { type ChildProcess, fork } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { createMailboxService } from '@awaken/server';
import { createRedisStores } from '@awaken/store-redis';
import { AGENT_ID, benchAgent } from './agent';
import { redisServiceStores } from './stores';

const WORKER = fileURLToPath(new URL('./worker.ts', import.meta.url));
const BENCH_DIR = fileURLToPath(new URL('../..', import.meta.url));

function forkWorker(job: { url: string; prefix: string; mode: 'service' | 'bare'; concurrency: number }) {
  const child: ChildProcess = fork(WORKER, [JSON.stringify(job)], {
    cwd: BENCH_DIR,
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const ready = new Promise<void>((resolve, reject) => {
    child.on('message', (message: { type: string }) => message.type === 'ready' && resolve());
    child.on('exit', (code) => reject(new Error(`worker exited ${code}`)));
  });
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  return { child, ready, exited };
}

/**
 * Runs completed per second by `processes` worker processes on one Redis: `count` runs (one tool call
 * each) are submitted first (write-ahead, before the clock), then the workers start and the clock runs
 * until every dispatch was acked. `bare` enqueues dispatches without runs and only claims and acks.
 */
export async function runsPerSecond(input: {
  url: string;
  mode: 'service' | 'bare';
  processes: number;
  count: number;
  concurrency: number;
}): Promise<number> {
  const redis = createRedisStores({ redis: input.url, prefix: `bench-svc:${randomUUID()}:` });
  const stores = redisServiceStores(redis);
  const api = createMailboxService({ agents: [benchAgent()], stores, concurrency: 0 });
  for (let start = 0; start < input.count; start += 100) {
    await Promise.all(
      Array.from({ length: Math.min(100, input.count - start) }, (_, offset) => {
        const index = start + offset;
        return input.mode === 'service'
          ? api.submit({ agentId: AGENT_ID, threadId: `t${index}`, input: 'plain', mode: 'background' })
          : stores.mailbox.enqueue({ threadId: `t${index}`, runId: `r${index}` });
      }),
    );
  }
  const workers = Array.from({ length: input.processes }, () =>
    forkWorker({ url: input.url, prefix: redis.prefix, mode: input.mode, concurrency: input.concurrency }),
  );
  await Promise.all(workers.map((worker) => worker.ready));
  const started = performance.now();
  for (const worker of workers) worker.child.send({ type: 'go' });
  const acks = `${redis.prefix}bench:acks`;
  while (Number((await redis.redis.get(acks)) ?? 0) < input.count) {
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  const elapsed = performance.now() - started;
  for (const worker of workers) worker.child.send({ type: 'stop' });
  await Promise.all(workers.map((worker) => worker.exited));
  await api.stop();
  let cursor = '0';
  do {
    const [next, keys] = await redis.redis.scan(cursor, 'MATCH', `${redis.prefix}*`, 'COUNT', 1000);
    cursor = next;
    if (keys.length > 0) await redis.redis.unlink(...keys);
  } while (cursor !== '0');
  await redis.close();
  return (input.count / elapsed) * 1000;
}
