/**
 * A worker process of the cross-process service tests, started by `forkService` with
 * `--import tsx`. argv[2] is JSON `{ url, prefix, workerId, config }`. It runs a mailbox service over
 * Redis stores with the scenario agent, reports `ready`, forwards the failures the service handled
 * (`error`), and stops gracefully on a `stop` message.
 */
import { createRedisStores } from '@awaken/store-redis';
import { createMailboxService } from '../src/create-mailbox-service';
import { redisCounters } from './counters';
import { countingMailbox } from './counting-mailbox';
import { scenarioAgent } from './scenario-agent';
import { subAgentScenario } from './sub-agent-scenario';
import type { WorkerConfig } from './worker-config';

interface Job {
  url: string;
  prefix: string;
  workerId: string;
  config: WorkerConfig;
}

async function main(job: Job): Promise<void> {
  const original = console.error;
  console.error = (...args: unknown[]) => original('[child', job.workerId, ']', ...args);
  const redis = createRedisStores({ redis: job.url, prefix: job.prefix });
  const counters = redisCounters(redis.redis, `${redis.prefix}test:counters`);
  const service = createMailboxService({
    agents: [scenarioAgent(counters), ...subAgentScenario(counters)],
    stores: {
      threadRuns: redis.threadRuns,
      mailbox: countingMailbox(redis.mailbox, counters),
      eventLog: redis.eventLog,
      inbox: redis.inbox,
    },
    workerId: job.workerId,
    ...job.config,
    onError: (error, context) =>
      process.send?.({
        type: 'error',
        context,
        message: error instanceof Error ? error.message : String(error),
      }),
  });
  await service.start();
  process.on('message', async (message: { type?: string }) => {
    if (message.type !== 'stop') return;
    await service.stop({ graceMs: 5_000 });
    await redis.close();
    process.send?.({ type: 'stopped' }, () => process.exit(0));
  });
  process.send?.({ type: 'ready' });
}

main(JSON.parse(process.argv[2] ?? '{}') as Job).catch((error: unknown) => {
  process.send?.({
    type: 'error',
    context: 'start',
    message: String(error instanceof Error ? error.stack : error),
  });
  process.exit(1);
});
