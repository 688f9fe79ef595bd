import { AwakenError, type RunDispatch, type RunRecord } from '@awaken/contract';
import type { ServiceContext } from '../service/service-context';
import { pendingWork } from './pending-work';

/** The dedupe key of a run's resume dispatch: at most one is queued or claimed at a time. */
export const resumeDedupeKey = (runId: string) => `resume:${runId}`;

async function existingResume(context: ServiceContext, error: AwakenError): Promise<RunDispatch | null> {
  const dispatchId = error.details?.dispatchId;
  return typeof dispatchId === 'string' ? context.stores.mailbox.loadDispatch(dispatchId) : null;
}

/**
 * Makes sure a waiting run with work in its inbox (see `pendingWork`) has a resume dispatch for the same run id:
 * enqueued once (dedupe key), whoever asks. When this process holds the run in its hot cache, it
 * claims the resume itself at once, so the cached copy is used; otherwise any worker takes it.
 */
export async function enqueueResume(context: ServiceContext, given: RunRecord): Promise<RunDispatch | null> {
  const { mailbox, inbox, threadRuns } = context.stores;
  const controls = await inbox.peek(given.runId);
  // the run is read again after the inbox: a caller's copy may predate a resume that already
  // applied these entries, finished and freed the dedupe key (a second resume would find no work)
  const record = await threadRuns.getRun(given.runId);
  if (!record || pendingWork(record, controls).length === 0) return null;
  // held here in the hot cache: claimed in the same write, so the cached copy is used
  const startedAs =
    context.hotCache.has(record.runId) && !context.stopping.aborted ? context.config.createId() : undefined;
  const input = {
    threadId: record.threadId,
    runId: record.runId,
    dedupeKey: resumeDedupeKey(record.runId),
    maxAttempts: context.config.maxAttempts,
  };
  let dispatch: RunDispatch;
  try {
    dispatch =
      startedAs === undefined
        ? await mailbox.enqueue(input)
        : await mailbox.enqueueAndClaim({
            ...input,
            workerId: context.config.workerId,
            leaseMs: context.config.leaseMs,
            dispatchInstanceId: startedAs,
          });
  } catch (error) {
    if (!AwakenError.hasCode(error, 'dedupe_conflict')) throw error;
    return existingResume(context, error);
  }
  if (startedAs !== undefined && dispatch.status === 'claimed') context.execute(dispatch, startedAs);
  return dispatch;
}
