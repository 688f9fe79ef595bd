/**
 * A worker process of the server-service benchmark (started by `forkWorker`). argv[2] is JSON
 * `{ url, prefix, mode, concurrency }`. `service`: a mailbox service over Redis executing the bench
 * agent; `bare`: a loop that only claims and acks. Each ack increments `<prefix>bench:acks`. It
 * reports `ready`, starts on `go`, and exits on `stop`.
 */
import type { MailboxStore } from '@awaken/contract';
import { createMailboxService } from '@awaken/server';
import { createRedisStores } from '@awaken/store-redis';
import { AGENT_ID, benchAgent } from './agent';
import { redisServiceStores } from './stores';

interface Job {
  url: string;
  prefix: string;
  mode: 'service' | 'bare';
  concurrency: number;
}

function countingAcks(mailbox: MailboxStore, count: () => Promise<unknown>): MailboxStore {
  return new Proxy(mailbox, {
    get(target, property, receiver) {
      if (property === 'ack') {
        return async (proof: Parameters<MailboxStore['ack']>[0]) => {
          const acked = await target.ack(proof);
          await count();
          return acked;
        };
      }
      const value = Reflect.get(target, property, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

async function bareLoop(mailbox: MailboxStore, job: Job, stop: AbortSignal): Promise<void> {
  const inFlight = new Set<Promise<unknown>>();
  while (!stop.aborted) {
    const free = job.concurrency - inFlight.size;
    if (free <= 0) {
      await Promise.race(inFlight);
      continue;
    }
    const claimed = await mailbox.claim({ workerId: `bare-${process.pid}`, limit: free, leaseMs: 30_000 });
    if (claimed.length === 0) {
      await mailbox.waitForWork({ timeoutMs: 200, signal: stop });
      continue;
    }
    for (const dispatch of claimed) {
      const done = mailbox
        .ack({ dispatchId: dispatch.dispatchId, claimToken: dispatch.claimToken ?? '' })
        .finally(() => inFlight.delete(done));
      inFlight.add(done);
    }
  }
}

async function main(job: Job): Promise<void> {
  const redis = createRedisStores({ redis: job.url, prefix: job.prefix });
  const stores = redisServiceStores(redis);
  const mailbox = countingAcks(stores.mailbox, () => redis.redis.incr(`${redis.prefix}bench:acks`));
  const stop = new AbortController();
  const service =
    job.mode === 'service'
      ? createMailboxService({
          agents: [benchAgent()],
          stores: { ...stores, mailbox },
          concurrency: job.concurrency,
        })
      : undefined;
  process.on('message', async (message: { type: string }) => {
    if (message.type === 'go') {
      if (service) await service.start();
      else void bareLoop(mailbox, job, stop.signal);
    }
    if (message.type === 'stop') {
      stop.abort();
      await service?.stop({ graceMs: 1_000 });
      await redis.close();
      process.exit(0);
    }
  });
  process.send?.({ type: 'ready', agent: AGENT_ID });
}

main(JSON.parse(process.argv[2] ?? '{}') as Job).catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
