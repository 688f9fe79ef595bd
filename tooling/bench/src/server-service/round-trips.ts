import { randomUUID } from 'node:crypto';
import { createMailboxService } from '@awaken/server';
import { createRedisStores } from '@awaken/store-redis';
import { AGENT_ID, benchAgent } from './agent';
import { redisServiceStores } from './stores';

async function commandCalls(
  redis: ReturnType<typeof createRedisStores>['redis'],
): Promise<Map<string, number>> {
  const calls = new Map<string, number>();
  for (const line of (await redis.info('commandstats')).split('\n')) {
    const match = /^cmdstat_([\w|]+):calls=(\d+)/.exec(line);
    if (match) calls.set(match[1] ?? '', Number(match[2]));
  }
  return calls;
}

/**
 * Redis commands per run (from `INFO commandstats`) while one worker executes `count` runs of one
 * tool call each: `evalsha` counts the store round trips (every store operation is one script), the
 * others the commands those scripts and the blocking reads run.
 */
export async function commandsPerRun(url: string, count: number): Promise<Array<[string, number]>> {
  const redis = createRedisStores({ redis: url, prefix: `bench-rt:${randomUUID()}:` });
  const stores = redisServiceStores(redis);
  const api = createMailboxService({ agents: [benchAgent()], stores, concurrency: 0 });
  const submitted = [];
  for (let index = 0; index < count; index += 1) {
    submitted.push(
      await api.submit({ agentId: AGENT_ID, threadId: `t${index}`, input: 'plain', mode: 'background' }),
    );
  }
  const before = await commandCalls(redis.redis);
  const worker = createMailboxService({ agents: [benchAgent()], stores, concurrency: 8 });
  await worker.start();
  for (const run of submitted) await run.done();
  await worker.stop();
  const after = await commandCalls(redis.redis);
  await api.stop();
  await redis.close();
  return [...after]
    .map(([name, calls]): [string, number] => [name, (calls - (before.get(name) ?? 0)) / count])
    .filter(([name, perRun]) => perRun >= 0.5 && name !== 'info')
    .sort((a, b) => b[1] - a[1]);
}
