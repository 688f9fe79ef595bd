import type { AgentDrift, RunDispatch, RunRecord } from '@awaken/contract';
import type { AgentRuntime } from '@awaken/runtime';
import type { NotificationOutbox } from '../../notifications/create-notification-outbox';
import type { ServiceStores } from '../../types';
import type { LiveRunEvents } from '../events/live-run-events';
import type { HotRunCache } from './hot-run-cache';
import type { ServiceConfig } from './service-config';

/** An activation executing in this process, by run id. */
export interface LiveActivation {
  dispatch: RunDispatch;
  /** Cancels the run (it ends `cancelled` through its own terminal checkpoint). */
  cancel(reason: string): void;
  /** Stops the run at its next safe point without ending it and hands the dispatch back (shutdown). */
  detach(reason: string): void;
  /** Settles when the activation and the dispatch's settlement are over. */
  readonly done: Promise<void>;
}

/** Everything the service's parts share. */
export interface ServiceContext {
  config: ServiceConfig;
  /** The stores as given; the runtime reads the thread/run store through the hot cache. */
  stores: ServiceStores;
  runtime: AgentRuntime;
  hotCache: HotRunCache;
  live: Map<string, LiveActivation>;
  /** The events of the activations executing here, for readers in this process. */
  liveEvents: LiveRunEvents;
  /**
   * Executes a dispatch this process claimed, to its settlement (`executeDispatch`). The paths that
   * claim outside the worker pool — a foreground submit, a resume of a run in the hot cache — reach
   * the executor through here, so they need not import it (the executor's settlement enqueues
   * resumes itself). `startedAs`: the dispatch instance id its start was recorded under when it was
   * claimed (`enqueueAndClaim`), so the executor records no second start.
   */
  execute(dispatch: RunDispatch, startedAs?: string): LiveActivation;
  /** Aborted when the service stops: no new claims, idle waits end. */
  stopping: AbortSignal;
  report(error: unknown, context: string): void;
  /** Where the notifications of settled runs are enqueued, when configured. */
  notifications?: NotificationOutbox;
  /** How the run's agent changed since the run started (`undefined`: it did not, or no pin). */
  agentDrift(record: RunRecord): AgentDrift | undefined;
  /** What a decision for a waiting run whose agent changed does (`MailboxServiceOptions.onAgentChange`). */
  onAgentChange: 'continue' | 'refuse';
}
