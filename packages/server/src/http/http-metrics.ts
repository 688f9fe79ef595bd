import {
  type RunDispatchStatus,
  type RunStatus,
  runDispatchStatusSchema,
  runStatusSchema,
} from '@awaken/contract';
import { Gauge, Histogram, Registry } from 'prom-client';
import type { MailboxService } from '../types';

/** The app's Prometheus metrics. */
export interface HttpMetrics {
  readonly registry: Registry;
  observeRequest(method: string, route: string, status: number, seconds: number): void;
  /** Time from an event's creation to its write on an SSE response. */
  observeEventLag(seconds: number): void;
}

interface StoreCounts {
  runs: Map<RunStatus, number>;
  dispatches: Map<RunDispatchStatus, number>;
  waiting: number;
  oldestQueuedAgeSeconds: number;
}

/** Counts runs and dispatches over the first `sample` threads of a tenant. */
async function countTenant(service: MailboxService, sample: number): Promise<StoreCounts> {
  const { threadRuns, mailbox } = service.stores;
  const counts: StoreCounts = {
    runs: new Map(),
    dispatches: new Map(),
    waiting: 0,
    oldestQueuedAgeSeconds: 0,
  };
  const now = await mailbox.now();
  const threads = await threadRuns.listThreads({ limit: sample });
  for (const thread of threads.items) {
    const runs = await threadRuns.listRuns(thread.id, { limit: 1000 });
    for (const run of runs.items) {
      counts.runs.set(run.status, (counts.runs.get(run.status) ?? 0) + 1);
      if (run.status === 'waiting') counts.waiting += 1;
    }
    const dispatches = await mailbox.listDispatches(thread.id, { limit: 1000 });
    for (const dispatch of dispatches.items) {
      counts.dispatches.set(dispatch.status, (counts.dispatches.get(dispatch.status) ?? 0) + 1);
      if (dispatch.status === 'queued') {
        const age = Math.max(0, now - dispatch.availableAt) / 1000;
        counts.oldestQueuedAgeSeconds = Math.max(counts.oldestQueuedAgeSeconds, age);
      }
    }
  }
  return counts;
}

/** Most waiting runs one scrape reads for `awaken_open_questions`. */
const MAX_WAITING_RUNS = 10_000;

/** The tickets of a tenant's waiting runs, from the store's status index (not a sample of threads). */
async function countOpenQuestions(service: MailboxService): Promise<number> {
  let open = 0;
  let read = 0;
  let cursor: string | undefined;
  do {
    const page = await service.stores.threadRuns.listRunsByStatus('waiting', {
      limit: 500,
      ...(cursor ? { cursor } : {}),
    });
    for (const run of page.items) open += run.waiting?.tickets.length ?? 0;
    read += page.items.length;
    cursor = page.nextCursor;
  } while (cursor && read < MAX_WAITING_RUNS);
  return open;
}

/**
 * Creates the metrics: HTTP latency by route and status, SSE event lag, and — counted from the stores
 * at scrape time over a sample of threads per tenant — runs by status, dispatches by status, waiting
 * runs and the age of the oldest queued dispatch; and the open questions of each tenant (the tickets of
 * its waiting runs, from the stores' status index).
 */
export function createHttpMetrics(options: {
  registry?: Registry;
  tenants: Record<string, MailboxService>;
  threadSample: number;
}): HttpMetrics {
  const registry = options.registry ?? new Registry();
  const latency = new Histogram({
    name: 'awaken_http_request_duration_seconds',
    help: 'HTTP request duration until the response starts, by method, route and status',
    labelNames: ['method', 'route', 'status'],
    buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });
  const eventLag = new Histogram({
    name: 'awaken_event_log_lag_seconds',
    help: 'Time from an event being produced to its write on an SSE response (the oldest event of each write)',
    buckets: [0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 30],
    registers: [registry],
  });
  let collecting: Promise<void> | undefined;
  // prom-client calls collect() of each gauge at scrape time; one scan of the stores serves all
  function collect(): Promise<void> {
    collecting ??= scan().finally(() => {
      collecting = undefined;
    });
    return collecting;
  }
  const gauge = (name: string, help: string, labelNames: string[]) =>
    new Gauge({ name, help, labelNames, registers: [registry], collect });
  const runs = gauge('awaken_runs', 'Runs by status (sampled threads)', ['tenant', 'status']);
  const dispatches = gauge('awaken_dispatches', 'Dispatches by status (sampled threads)', [
    'tenant',
    'status',
  ]);
  const waiting = gauge('awaken_waiting_runs', 'Runs waiting for a decision (sampled threads)', ['tenant']);
  const queueAge = gauge(
    'awaken_queue_oldest_age_seconds',
    'Age of the oldest queued dispatch since it became available (sampled threads)',
    ['tenant'],
  );
  const active = gauge('awaken_active_activations', 'Activations executing in this process', ['tenant']);
  const questions = gauge(
    'awaken_open_questions',
    'Questions waiting for an answer: the tickets of the waiting runs (every thread, up to 10 000 runs)',
    ['tenant'],
  );
  async function scan(): Promise<void> {
    for (const [tenant, service] of Object.entries(options.tenants)) {
      const counts = await countTenant(service, options.threadSample);
      for (const status of runStatusSchema.options)
        runs.set({ tenant, status }, counts.runs.get(status) ?? 0);
      for (const status of runDispatchStatusSchema.options)
        dispatches.set({ tenant, status }, counts.dispatches.get(status) ?? 0);
      waiting.set({ tenant }, counts.waiting);
      queueAge.set({ tenant }, counts.oldestQueuedAgeSeconds);
      active.set({ tenant }, service.stats().active);
      questions.set({ tenant }, await countOpenQuestions(service));
    }
  }
  return {
    registry,
    observeRequest: (method, route, status, seconds) =>
      latency.observe({ method, route, status: String(status) }, seconds),
    observeEventLag: (seconds) => eventLag.observe(Math.max(0, seconds)),
  };
}
