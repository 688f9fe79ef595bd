import { type AgentDrift, AwakenError, type RunRecord, agentDriftOf } from '@awaken/contract';
import { agentPinOfDefinition, createAgentRuntime } from '@awaken/runtime';
import { createMemoryStores } from '@awaken/store-memory';
import { createRunCommands } from './internal/commands/create-run-commands';
import { requeueDeadLetter } from './internal/commands/requeue-dead-letter';
import { executeDispatch } from './internal/dispatch/execute-dispatch';
import { type WorkerPool, startWorkerPool } from './internal/dispatch/worker-pool';
import { followRunEventPages, followRunEvents } from './internal/events/follow-run-events';
import { LiveRunEvents } from './internal/events/live-run-events';
import { type LeaseSweeper, startLeaseSweeper } from './internal/leases/lease-sweeper';
import { abortableDelay } from './internal/service/abortable-delay';
import { createHotRunCache } from './internal/service/hot-run-cache';
import { resolveServiceConfig } from './internal/service/service-config';
import type { ServiceContext } from './internal/service/service-context';
import { checkClientTools, serverToolNames } from './internal/submit/check-client-tools';
import { submitRun } from './internal/submit/submit-run';
import type {
  MailboxService,
  MailboxServiceOptions,
  ServiceStores,
  SubmitRequest,
  SubmittedRun,
} from './types';

function checkStores(stores: ServiceStores): void {
  for (const name of ['threadRuns', 'mailbox', 'eventLog', 'inbox'] as const) {
    if (typeof stores[name] !== 'object' || stores[name] === null) {
      throw new AwakenError('invalid_config', `stores.${name} is required`);
    }
  }
}

/**
 * Creates the mailbox service of one process: write-ahead submit, workers that claim dispatches
 * from the shared mailbox, lease heartbeats and sweeps, retry classification and the run commands.
 * Every process of a deployment creates one over the same stores. Call `start()` to run workers.
 */
export function createMailboxService(options: MailboxServiceOptions): MailboxService {
  const config = resolveServiceConfig(options);
  const stores = options.stores ?? createMemoryStores();
  checkStores(stores);
  const hotCache = createHotRunCache(stores.threadRuns, config.hotCacheSize);
  const runtime = createAgentRuntime({
    agents: options.agents,
    ...(options.model ? { model: options.model } : {}),
    stores: { threadRuns: hotCache.store, eventLog: stores.eventLog, inbox: stores.inbox },
    runLease: { leaseMs: config.leaseMs },
    createId: config.createId,
    // a model or store failure that may pass leaves the run at its checkpoint; the dispatch retries
    transientModelErrors: 'interrupt',
    transientStoreErrors: 'interrupt',
    ...(options.onStateChange ? { onStateChange: options.onStateChange } : {}),
    onAgentChange: options.onAgentChange ?? 'continue',
  });
  const pins = new Map(options.agents.map((agent) => [agent.id, agentPinOfDefinition(agent, options.model)]));
  const agentDrift = (record: RunRecord): AgentDrift | undefined => {
    const now = pins.get(record.agentId);
    return record.agentPin && now ? agentDriftOf(record.agentPin, now) : undefined;
  };
  const agentTools = new Map(options.agents.map((agent) => [agent.id, serverToolNames(agent)]));
  const stop = new AbortController();
  const context: ServiceContext = {
    config,
    stores,
    runtime,
    hotCache,
    live: new Map(),
    liveEvents: new LiveRunEvents(
      options.observeEvents
        ? (runId, event) => {
            try {
              options.observeEvents?.({ runId, events: [event], eventLog: stores.eventLog });
            } catch (error) {
              config.onError(error, `observing events of run ${runId}`);
            }
          }
        : undefined,
    ),
    execute: (dispatch, startedAs) => executeDispatch(context, dispatch, startedAs),
    stopping: stop.signal,
    report: (error, where) => config.onError(error, where),
    ...(options.notifications ? { notifications: options.notifications } : {}),
    agentDrift,
    onAgentChange: options.onAgentChange ?? 'continue',
  };
  let pool: WorkerPool | undefined;
  let sweeper: LeaseSweeper | undefined;
  let stopped: Promise<void> | undefined;

  async function submit(request: SubmitRequest): Promise<SubmittedRun> {
    if (stop.signal.aborted) throw new AwakenError('conflict', 'the service is stopping');
    const serverTools = agentTools.get(request?.agentId);
    if (!serverTools) {
      throw new AwakenError('not_found', `unknown agent "${String(request?.agentId)}"`, {
        details: { agentId: request?.agentId },
      });
    }
    checkClientTools(request.tools, serverTools, request.agentId);
    return (await submitRun(context, commands, request)).submitted;
  }

  const commands = createRunCommands(context, submit);

  async function shutdown(graceMs: number, force: boolean): Promise<void> {
    stop.abort();
    sweeper?.stop();
    await pool?.stopped;
    const running = () => [...context.live.values()];
    if (!force && running().length > 0) {
      const grace = new AbortController();
      await Promise.race([
        Promise.all(running().map((live) => live.done)),
        abortableDelay(graceMs, grace.signal),
      ]);
      grace.abort();
    }
    // what still runs stops at its next safe point; its dispatch is handed back to another process
    for (const live of running()) live.detach('the service is stopping');
    if (!force) await Promise.all(running().map((live) => live.done));
  }

  return {
    workerId: config.workerId,
    agentIds: Object.freeze(options.agents.map((agent) => agent.id)),
    runtime,
    stores,
    commands,
    control: commands,
    agentDrift,
    async start() {
      if (stop.signal.aborted) throw new AwakenError('conflict', 'the service was stopped');
      if (pool) return;
      sweeper = startLeaseSweeper(context);
      await sweeper.sweep();
      pool = startWorkerPool(context);
    },
    submit,
    follow: (runId, followOptions = {}) =>
      followRunEvents(stores.eventLog, runId, followOptions, context.liveEvents),
    followPages: (runId, followOptions = {}) =>
      followRunEventPages(stores.eventLog, runId, followOptions, context.liveEvents),
    dispatch: (dispatchId) => stores.mailbox.loadDispatch(dispatchId),
    requeueDeadLetter(dispatchId, requeueOptions = {}) {
      if (stop.signal.aborted) throw new AwakenError('conflict', 'the service is stopping');
      return requeueDeadLetter(context, commands, dispatchId, requeueOptions.context);
    },
    stop(stopOptions = {}) {
      if (stopOptions.force) return shutdown(0, true);
      stopped ??= shutdown(stopOptions.graceMs ?? 10_000, false);
      return stopped;
    },
    stats: () => ({
      workerId: config.workerId,
      active: context.live.size,
      hotRuns: hotCache.size(),
      hotResumes: hotCache.hits,
      staleCopies: hotCache.misses,
    }),
  };
}
