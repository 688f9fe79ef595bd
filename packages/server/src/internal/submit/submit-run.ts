import {
  AwakenError,
  type EnqueueDispatchInput,
  type RunDispatch,
  type Thread,
  findJsonIssue,
  formatJsonIssue,
  isWellFormedText,
  parseWith,
  clientToolSchema,
  forkOriginSchema,
  runContextSchema,
  runRequestOriginSchema,
  userMessageSchema,
} from '@awaken/contract';
import { z } from 'zod';
import type { SubmitRequest, SubmittedRun } from '../../types';
import { refuseChildRun } from '../child-runs/refuse-child-run';
import { awaitRunStatus } from '../events/await-run-status';
import { followRunEvents } from '../events/follow-run-events';
import { abortableDelay } from '../service/abortable-delay';
import type { ServiceContext } from '../service/service-context';

const id = z.string().min(1).max(512).refine(isWellFormedText, 'must be well-formed Unicode');

export const submitRequestSchema = z
  .object({
    agentId: id,
    threadId: id.optional(),
    runId: id.optional(),
    input: z.union([z.string().min(1), z.array(userMessageSchema).min(1)]).optional(),
    mode: z.enum(['foreground', 'background']).optional(),
    ifBusy: z.enum(['interrupt', 'queue', 'conflict']).optional(),
    priority: z.number().int().min(0).max(255).optional(),
    origin: runRequestOriginSchema.optional(),
    context: runContextSchema.optional(),
    tools: z.array(clientToolSchema).optional(),
    forkOf: forkOriginSchema.optional(),
  })
  // only a fork continues without new input (its branch already ends where the model answers)
  .refine((request) => request.input !== undefined || request.forkOf !== undefined, {
    message: 'expected the new input (a string or user messages)',
    path: ['input'],
  });

/** The run commands the submit path uses to clear a busy thread (`ifBusy`). */
export interface SubmitCommands {
  interruptThread(threadId: string, reason: string): Promise<unknown>;
  cancelRun(runId: string, reason: string): Promise<unknown>;
}

/**
 * Refuses a request whose input, context or tools JSON cannot store faithfully (a lone surrogate, a
 * value nested deeper than a stored value may be), naming the field. It runs before the schema, whose
 * recursive JSON check would overflow the stack on a value nested thousands deep.
 */
function checkStorable(input: SubmitRequest): void {
  for (const field of ['input', 'context', 'tools'] as const) {
    if (input[field] === undefined) continue;
    const issue = findJsonIssue(input[field], { path: field });
    if (issue) {
      throw new AwakenError('validation_failed', `invalid submit request: ${formatJsonIssue(issue)}`, {
        details: { field },
      });
    }
  }
}

/**
 * Creates the run, and its thread when new. The runtime checks the whole request (agent, input,
 * tools, context) before it writes anything, so a refused request leaves no empty thread behind. A
 * concurrent submit may create the thread meanwhile: then the run is created on it.
 */
async function createRun(
  context: ServiceContext,
  request: Parameters<ServiceContext['runtime']['createRun']>[0],
): Promise<void> {
  try {
    await context.runtime.createRun(request);
  } catch (error) {
    const runId = request.runId as string;
    if (!AwakenError.hasCode(error, 'conflict') || (await context.stores.threadRuns.getRun(runId)))
      throw error;
    const { newThread: _seenAbsent, ...again } = request;
    await context.runtime.createRun(again);
  }
}

/**
 * Refuses (or, with `interrupt`, clears) what stands in the way of a new run on the thread. A waiting
 * run under the new run's own id is that run, created meanwhile by the same request sent again: it is
 * `conflict` (the run exists), never cancelled to make room for itself.
 */
async function makeRoom(
  context: ServiceContext,
  commands: SubmitCommands,
  threadId: string,
  runId: string,
  ifBusy: 'interrupt' | 'queue' | 'conflict',
  /** The thread's read, when already asked. */
  reading: Promise<Thread | null> = context.stores.threadRuns.getThread(threadId),
): Promise<{ threadSeen: boolean }> {
  const { threadRuns, mailbox } = context.stores;
  const thread = await reading;
  // the thread of a sub-agent's child run takes runs only from its parent's call
  const latest = thread?.latestRunId ? await threadRuns.getRun(thread.latestRunId) : null;
  if (latest) await refuseChildRun(threadRuns, latest, 'start runs on its thread');
  const open = thread?.openRunId ? await threadRuns.getRun(thread.openRunId) : null;
  if (open?.runId === runId)
    throw new AwakenError('conflict', `run ${runId} already exists`, { details: { runId } });
  if (open?.status === 'waiting') {
    if (ifBusy !== 'interrupt') {
      throw new AwakenError(
        'conflict',
        `thread ${threadId} has a waiting run ${open.runId}; decide or cancel it, or submit with ifBusy 'interrupt'`,
        { details: { threadId, openRunId: open.runId } },
      );
    }
    await commands.cancelRun(open.runId, 'superseded by new input');
  }
  if (ifBusy === 'conflict') {
    const busy = await mailbox.listDispatches(threadId, { status: ['queued', 'claimed'], limit: 1 });
    if (busy.items.length > 0) {
      throw new AwakenError('conflict', `thread ${threadId} has queued or active work`, {
        details: { threadId, dispatchId: busy.items[0]?.dispatchId },
      });
    }
  }
  return { threadSeen: thread !== null };
}

/**
 * Claims a foreground dispatch for this process at once. While the thread is still held by the
 * run it interrupted (or queued behind), keep trying for up to one lease; after that, or once
 * another process claimed it, the workers own it.
 */
async function claimForeground(context: ServiceContext, dispatch: RunDispatch): Promise<void> {
  const { mailbox } = context.stores;
  const giveUpAt = Date.now() + context.config.leaseMs;
  let pause = 5;
  while (!context.stopping.aborted && Date.now() < giveUpAt) {
    const claimed = await mailbox.claimDispatch({
      dispatchId: dispatch.dispatchId,
      workerId: context.config.workerId,
      leaseMs: context.config.leaseMs,
    });
    if (claimed) {
      await context.execute(claimed).done;
      return;
    }
    const current = await mailbox.loadDispatch(dispatch.dispatchId);
    if (current?.status !== 'queued') return;
    await abortableDelay(pause, context.stopping);
    pause = Math.min(pause * 2, 250);
  }
}

/**
 * Enqueues a foreground dispatch claimed for this process in the same write (with its start
 * recorded), and executes it here; when its thread still has a claim (the run it interrupted, or
 * queued behind) it stays queued and `claimForeground` keeps trying.
 */
async function enqueueForeground(
  context: ServiceContext,
  input: EnqueueDispatchInput,
): Promise<{ dispatch: RunDispatch; execution: Promise<void> }> {
  const startedAs = context.config.createId();
  const dispatch = await context.stores.mailbox.enqueueAndClaim({
    ...input,
    workerId: context.config.workerId,
    leaseMs: context.config.leaseMs,
    dispatchInstanceId: startedAs,
  });
  const execution =
    dispatch.status === 'claimed'
      ? context.execute(dispatch, startedAs).done
      : claimForeground(context, dispatch);
  return {
    dispatch,
    execution: execution.catch((error) => context.report(error, `foreground run ${input.runId}`)),
  };
}

/**
 * Write-ahead submit: the run (with its input) is stored and its dispatch enqueued before this
 * resolves, so a crash at any later point loses nothing; then a foreground run is claimed and
 * executed here, a background one waits for any worker.
 */
export async function submitRun(
  context: ServiceContext,
  commands: SubmitCommands,
  input: SubmitRequest,
  /** A dispatch id chosen ahead (a requeue reserves it): enqueue refuses a second dispatch under it. */
  dispatchId?: string,
): Promise<{ submitted: SubmittedRun; execution: Promise<void> }> {
  checkStorable(input);
  const request = parseWith(submitRequestSchema, input, 'submit request');
  const mode = request.mode ?? 'foreground';
  const ifBusy = request.ifBusy ?? (mode === 'foreground' ? 'interrupt' : 'queue');
  const threadId = request.threadId ?? context.config.createId();
  const runId = request.runId ?? context.config.createId();
  // an id chosen here is new; one the caller chose may name an existing run. The thread is read
  // beside it (one round trip where the store batches same-tick reads), for makeRoom
  const { threadRuns } = context.stores;
  const existing = request.runId === undefined ? null : threadRuns.getRun(runId);
  const thread = threadRuns.getThread(threadId);
  thread.catch(() => undefined); // not used when the run exists
  if (await existing) {
    throw new AwakenError('conflict', `run ${runId} already exists`, { details: { runId } });
  }
  // nothing is written before the runtime has checked the request (in createRun)
  const { threadSeen } = await makeRoom(context, commands, threadId, runId, ifBusy, thread);
  await createRun(context, {
    // the thread just read absent: it is written beside the run, not after a refused run write
    ...(threadSeen ? {} : { newThread: true }),
    agentId: request.agentId,
    threadId,
    runId,
    ...(request.input === undefined ? {} : { input: request.input }),
    ...(request.forkOf ? { forkOf: request.forkOf } : {}),
    ...(request.origin ? { origin: request.origin } : {}),
    ...(request.context ? { context: request.context } : {}),
    ...(request.tools ? { tools: request.tools } : {}),
  });
  if (ifBusy === 'interrupt') await commands.interruptThread(threadId, 'interrupted by newer input');
  const enqueue = {
    threadId,
    runId,
    maxAttempts: context.config.maxAttempts,
    ...(dispatchId === undefined ? {} : { dispatchId }),
    ...(request.priority === undefined ? {} : { priority: request.priority }),
  };
  let dispatch: RunDispatch;
  let execution = Promise.resolve();
  if (mode === 'foreground' && !context.stopping.aborted) {
    // the run is new and about to execute here: its readers wait for it in memory, not on the log
    const withdraw = context.liveEvents.expect(runId);
    try {
      ({ dispatch, execution } = await enqueueForeground(context, enqueue));
    } catch (error) {
      withdraw();
      throw error;
    }
    execution = execution.finally(async () => {
      // a worker of this process may have claimed it first: its activation publishes the events
      await context.live.get(runId)?.done;
      withdraw();
    });
  } else {
    dispatch = await context.stores.mailbox.enqueue(enqueue);
  }
  const { stores } = context;
  return {
    execution,
    submitted: {
      runId,
      threadId,
      dispatchId: dispatch.dispatchId,
      events: (options = {}) => followRunEvents(stores.eventLog, runId, options, context.liveEvents),
      settled: (options = {}) => awaitRunStatus(stores, runId, { ...options, statuses: ['waiting', 'done'] }),
      done: (options = {}) => awaitRunStatus(stores, runId, { ...options, statuses: ['done'] }),
    },
  };
}
