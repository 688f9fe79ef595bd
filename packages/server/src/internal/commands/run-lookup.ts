import { AwakenError, type RunRecord } from '@awaken/contract';
import type { ActiveRunView, RunTarget } from '../../types';
import type { ServiceContext } from '../service/service-context';

export const notFound = (what: string) => new AwakenError('not_found', `${what} not found`);

export async function requireRun(context: ServiceContext, runId: string): Promise<RunRecord> {
  if (typeof runId !== 'string' || runId === '') {
    throw new AwakenError('validation_failed', 'runId must be a non-empty string');
  }
  const record = await context.stores.threadRuns.getRun(runId);
  if (!record) throw notFound(`run ${runId}`);
  return record;
}

/** The thread's executing run (its claimed dispatch's, else `activeRunId`), else its waiting run. */
export async function activeRun(context: ServiceContext, threadId: string): Promise<ActiveRunView | null> {
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

/** The run a target addresses: the run itself, or the thread's open run, else its active run. */
export async function resolveTarget(context: ServiceContext, target: RunTarget): Promise<RunRecord> {
  if ('runId' in target) return requireRun(context, target.runId);
  const view = await activeRun(context, target.threadId);
  if (!view) throw notFound(`an active or waiting run of thread ${target.threadId}`);
  return view.record;
}
