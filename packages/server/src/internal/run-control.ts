import { AwakenError, type RunRecord, parseWith, userMessageSchema } from '@awaken/contract';
import { z } from 'zod';
import type {
  ActiveRunView,
  InjectResult,
  InterruptResult,
  RunControlService,
  RunTarget,
  SubmitRequest,
  SubmittedRun,
} from '../types';
import { decideRun } from './decide-run';
import type { ServiceContext } from './service-context';

const injectRequestSchema = z.object({
  threadId: z.string().min(1),
  input: z.union([z.string().min(1), z.array(userMessageSchema).min(1)]),
  mode: z.enum(['queue', 'steer', 'interrupt', 'resume']),
  agentId: z.string().min(1).optional(),
});

const notFound = (what: string) => new AwakenError('not_found', `${what} not found`);

async function requireRun(context: ServiceContext, runId: string): Promise<RunRecord> {
  if (typeof runId !== 'string' || runId === '') {
    throw new AwakenError('validation_failed', 'runId must be a non-empty string');
  }
  const record = await context.stores.threadRuns.getRun(runId);
  if (!record) throw notFound(`run ${runId}`);
  return record;
}

/** The run a target addresses: the run itself, or the thread's open run, else its active run. */
async function resolveTarget(context: ServiceContext, target: RunTarget): Promise<RunRecord> {
  if ('runId' in target) return requireRun(context, target.runId);
  const view = await activeRun(context, target.threadId);
  if (!view) throw notFound(`an active or waiting run of thread ${target.threadId}`);
  return view.record;
}

async function activeRun(context: ServiceContext, threadId: string): Promise<ActiveRunView | null> {
  const { threadRuns, mailbox } = context.stores;
  const thread = await threadRuns.getThread(threadId);
  if (!thread) throw notFound(`thread ${threadId}`);
  const claimed = await mailbox.listDispatches(threadId, { status: ['claimed'], limit: 1 });
  const candidates = [claimed.items[0]?.runId, thread.activeRunId, thread.openRunId];
  for (const runId of candidates) {
    if (runId === undefined) continue;
    const record = await threadRuns.getRun(runId);
    if (!record || record.status === 'done') continue;
    return {
      runId,
      threadId,
      kind: record.status === 'waiting' ? 'open' : 'active',
      record,
      tickets: record.waiting?.tickets ?? [],
    };
  }
  return null;
}

/**
 * Cancels a run: a live activation in this process through its signal; a run nobody executes
 * (waiting, or created and still queued) by a cancelling activation here. A run executing in
 * another process is `conflict` until the run-control inbox carries cancels across processes.
 */
async function cancelRun(context: ServiceContext, runId: string, reason: string): Promise<RunRecord> {
  const record = await requireRun(context, runId);
  if (record.status === 'done') return record;
  const live = context.live.get(runId);
  if (live) {
    live.cancel(reason);
    await live.done;
    return requireRun(context, runId);
  }
  const { mailbox } = context.stores;
  const inFlight = await mailbox.listDispatches(record.threadId, {
    status: ['queued', 'claimed'],
    limit: 1000,
  });
  for (const dispatch of inFlight.items.filter((item) => item.runId === runId)) {
    if (dispatch.status === 'claimed') {
      throw new AwakenError(
        'conflict',
        `run ${runId} is executing in ${dispatch.claimedBy ?? 'another process'}`,
        {
          details: { runId, reason: 'run_busy', claimedBy: dispatch.claimedBy },
        },
      );
    }
    await mailbox.cancel(dispatch.dispatchId).catch((error: unknown) => {
      if (!AwakenError.hasCode(error, 'conflict')) throw error;
    });
  }
  await context.runtime.cancelRun(runId, reason);
  return requireRun(context, runId);
}

/**
 * Latest wins: bumps the thread's epoch (queued work superseded), cancels the active run — here at
 * once; in another process when its lease heartbeat sees the epoch moved on — and cancels the open
 * waiting run.
 */
async function interruptThread(
  context: ServiceContext,
  threadId: string,
  reason: string,
): Promise<InterruptResult> {
  const { threadRuns, mailbox } = context.stores;
  const thread = await threadRuns.getThread(threadId);
  if (!thread) throw notFound(`thread ${threadId}`);
  const interrupt = await mailbox.interrupt(threadId);
  const active = interrupt.activeDispatch;
  if (active) {
    const live = context.live.get(active.runId);
    if (live?.dispatch.dispatchId === active.dispatchId) live.cancel(reason);
  }
  const open = thread.openRunId ? await threadRuns.getRun(thread.openRunId) : null;
  if (open?.status === 'waiting' && open.runId !== active?.runId)
    await cancelRun(context, open.runId, reason);
  return {
    threadId,
    newDispatchEpoch: interrupt.newDispatchEpoch,
    supersededCount: interrupt.supersededCount,
    ...(active ? { cancelledRunId: active.runId } : {}),
  };
}

/** Run control over the service's stores; `submit` starts the new runs of `queue` and `interrupt`. */
export function createRunControl(
  context: ServiceContext,
  submit: (request: SubmitRequest) => Promise<SubmittedRun>,
): RunControlService {
  return {
    getActiveRun: (threadId) => activeRun(context, threadId),
    async decide(target, decisions) {
      const list: unknown[] = Array.isArray(decisions) ? decisions : [decisions];
      if (list.length === 0)
        throw new AwakenError('validation_failed', 'decisions: expected at least one decision');
      return decideRun(context, await resolveTarget(context, target), list);
    },
    cancelRun: (runId, reason = 'run cancelled') => cancelRun(context, runId, reason),
    interruptThread: (threadId, reason = 'interrupted') => interruptThread(context, threadId, reason),
    async injectUserInput(input): Promise<InjectResult> {
      const request = parseWith(injectRequestSchema, input, 'inject request');
      const thread = await context.stores.threadRuns.getThread(request.threadId);
      if (!thread) throw notFound(`thread ${request.threadId}`);
      switch (request.mode) {
        case 'queue':
        case 'interrupt': {
          const latest = thread.latestRunId
            ? await context.stores.threadRuns.getRun(thread.latestRunId)
            : null;
          const agentId = request.agentId ?? latest?.agentId;
          if (!agentId)
            throw new AwakenError(
              'validation_failed',
              'agentId: the thread has no run to take the agent from',
            );
          const submitted = await submit({
            agentId,
            threadId: request.threadId,
            input: request.input,
            mode: request.mode === 'queue' ? 'background' : 'foreground',
            ifBusy: request.mode === 'queue' ? 'queue' : 'interrupt',
          });
          return { mode: request.mode, runId: submitted.runId, dispatchId: submitted.dispatchId };
        }
        case 'steer':
        case 'resume':
          throw new AwakenError(
            'conflict',
            `inject mode '${request.mode}' needs the run-control inbox, which this runtime does not provide yet`,
          );
        default: {
          const never: never = request.mode;
          throw new AwakenError('internal', `unknown inject mode ${String(never)}`);
        }
      }
    },
  };
}
