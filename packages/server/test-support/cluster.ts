import { randomUUID } from 'node:crypto';
import { createMemoryStores } from '@awaken/store-memory';
import { createRedisStores } from '@awaken/store-redis';
import { createMailboxService } from '../src/create-mailbox-service';
import type { MailboxService, ServiceStores } from '../src/types';
import { type Counters, memoryCounters, redisCounters } from './counters';
import { countingMailbox } from './counting-mailbox';
import { forkService } from './fork-service';
import { scenarioAgent } from './scenario-agent';
import { subAgentScenario } from './sub-agent-scenario';
import { STEADY, type WorkerConfig } from './worker-config';

/** A worker "process": a separate Node process on Redis, a separate service in this process on memory. */
export interface ClusterWorker {
  workerId: string;
  /** Settles once the worker is gone, with its exit signal or code. */
  readonly exited: Promise<NodeJS.Signals | number | null>;
  /** Redis: SIGKILL. Memory: the service stops at once without draining. */
  kill(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Several services over one set of stores. `api` lives in the test process and runs no background
 * workers (it executes only the foreground runs submitted through it); the workers execute the rest.
 */
export interface ServiceCluster {
  backend: 'memory' | 'redis';
  api: MailboxService;
  /** The stores as the test reads them (not through any service). */
  stores: ServiceStores;
  counters: Counters;
  workers: ClusterWorker[];
  addWorker(overrides?: Partial<WorkerConfig>): Promise<ClusterWorker>;
  /** Failures services handled, by worker. */
  errors(): Array<{ workerId: string; context: string; message: string }>;
  close(): Promise<void>;
}

type Errors = Array<{ workerId: string; context: string; message: string }>;

function memoryWorker(
  stores: ServiceStores,
  counters: Counters,
  workerId: string,
  config: WorkerConfig,
  errors: Errors,
): MailboxService {
  return createMailboxService({
    agents: [scenarioAgent(counters), ...subAgentScenario(counters)],
    stores: { ...stores, mailbox: countingMailbox(stores.mailbox, counters) },
    workerId,
    ...config,
    onError: (error, context) =>
      errors.push({ workerId, context, message: error instanceof Error ? error.message : String(error) }),
  });
}

/** N services sharing memory stores in this process: the embedded backend, same suite. */
export async function createMemoryCluster(
  workers: number,
  config: WorkerConfig = STEADY,
): Promise<ServiceCluster> {
  const memory = createMemoryStores();
  const stores: ServiceStores = {
    threadRuns: memory.threadRuns,
    mailbox: memory.mailbox,
    eventLog: memory.eventLog,
    inbox: memory.inbox,
  };
  const counters = memoryCounters();
  const errors: Errors = [];
  const api = memoryWorker(stores, counters, 'api', { ...config, concurrency: 0 }, errors);
  await api.start();
  const cluster: ServiceCluster = {
    backend: 'memory',
    api,
    stores,
    counters,
    workers: [],
    async addWorker(overrides = {}) {
      const workerId = `worker-${cluster.workers.length + 1}`;
      const service = memoryWorker(stores, counters, workerId, { ...config, ...overrides }, errors);
      await service.start();
      let exit: (how: null) => void = () => {};
      const exited = new Promise<null>((resolve) => {
        exit = resolve;
      });
      const end = (stopping: Promise<void>) => stopping.finally(() => exit(null));
      const worker: ClusterWorker = {
        workerId,
        exited,
        kill: () => end(service.stop({ force: true })),
        stop: () => end(service.stop({ graceMs: 5_000 })),
      };
      cluster.workers.push(worker);
      return worker;
    },
    errors: () => [...errors],
    async close() {
      await Promise.all(cluster.workers.map((worker) => worker.stop()));
      await api.stop({ graceMs: 5_000 });
    },
  };
  for (let index = 0; index < workers; index += 1) await cluster.addWorker();
  return cluster;
}

/** N worker processes and an api service in this process, over one Redis prefix. */
export async function createRedisCluster(
  url: string,
  workers: number,
  config: WorkerConfig = STEADY,
): Promise<ServiceCluster> {
  const redis = createRedisStores({ redis: url, prefix: `svc-int:${randomUUID()}:` });
  const stores: ServiceStores = {
    threadRuns: redis.threadRuns,
    mailbox: redis.mailbox,
    eventLog: redis.eventLog,
    inbox: redis.inbox,
  };
  const counters = redisCounters(redis.redis, `${redis.prefix}test:counters`);
  const errors: Errors = [];
  const api = memoryWorker(stores, counters, 'api', { ...config, concurrency: 0 }, errors);
  await api.start();
  const processes: Awaited<ReturnType<typeof forkService>>[] = [];
  let started = 0;
  const cluster: ServiceCluster = {
    backend: 'redis',
    api,
    stores,
    counters,
    workers: [],
    async addWorker(overrides = {}) {
      started += 1;
      const worker = await forkService({
        url,
        prefix: redis.prefix,
        workerId: `worker-${started}`,
        config: { ...config, ...overrides },
      });
      processes.push(worker);
      cluster.workers.push(worker);
      return worker;
    },
    errors: () => [
      ...errors,
      ...processes.flatMap((worker) =>
        worker.errors.map((error) => ({ workerId: worker.workerId, ...error })),
      ),
    ],
    async close() {
      await Promise.all(processes.map((worker) => worker.stop()));
      await api.stop({ graceMs: 5_000 });
      let cursor = '0';
      do {
        const [next, keys] = await redis.redis.scan(cursor, 'MATCH', `${redis.prefix}*`, 'COUNT', 1000);
        cursor = next;
        if (keys.length > 0) await redis.redis.unlink(...keys);
      } while (cursor !== '0');
      await redis.close();
    },
  };
  await Promise.all(Array.from({ length: workers }, () => cluster.addWorker()));
  return cluster;
}
