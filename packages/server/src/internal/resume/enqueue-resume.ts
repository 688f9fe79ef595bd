import { createHash } from 'node:crypto';
import { AwakenError, type RunControl, type RunDispatch, type RunRecord } from '@awaken/contract';
import type { ServiceContext } from '../service/service-context';
import { pendingWork } from './pending-work';

/** The dedupe key of a run's resume dispatch: at most one is queued or claimed at a time. */
export const resumeDedupeKey = (runId: string) => `resume:${runId}`;

/**
 * The id of the resume of one state of a run: its record's version and the inbox entries that are
 * work in it. Whoever judges the same state enqueues the same dispatch id, and a store never
 * enqueues an id twice — also after the first one ran and freed the dedupe key.
 */
export function resumeDispatchId(record: RunRecord, pending: readonly RunControl[]): string {
  const hash = createHash('sha256').update(record.runId).update('\0').update(String(record.version));
  for (const id of pending.map((control) => control.id).sort()) hash.update('\0').update(id);
  return `resume-${hash.digest('base64url').slice(0, 32)}`;
}

async function existingResume(context: ServiceContext, error: AwakenError): Promise<RunDispatch | null> {
  const dispatchId = error.details?.dispatchId;
  return typeof dispatchId === 'string' ? context.stores.mailbox.loadDispatch(dispatchId) : null;
}

/**
 * Makes sure a waiting run with work in its inbox (see `pendingWork`) has a resume dispatch for the
 * same run id: enqueued once, whoever asks and however late. Two guards: the dedupe key (one resume
 * queued or claimed at a time), and the dispatch id of the state judged ({@link resumeDispatchId}):
 * a caller that read the run before a resume applied its work, and enqueues only after that resume
 * finished and freed the key, asks for the id that resume already has and gets it back, not a
 * second, empty resume. (A resume of the same state that ended without applying its work — its
 * checkpoint would be visible before its end — is followed by one with a new id.) When this process
 * holds the run in its hot cache, it claims the resume itself at once, so the cached copy is used;
 * otherwise any worker takes it.
 */
export async function enqueueResume(context: ServiceContext, given: RunRecord): Promise<RunDispatch | null> {
  const { mailbox, inbox, threadRuns } = context.stores;
  let ended: RunDispatch | undefined;
  for (let round = 0; ; round += 1) {
    const controls = await inbox.peek(given.runId);
    // the run is read again after the inbox: a caller's copy may predate a resume that already
    // applied these entries, finished and freed the dedupe key (a second resume would find no work)
    const record = await threadRuns.getRun(given.runId);
    if (!record) return null;
    const pending = pendingWork(record, controls);
    if (pending.length === 0) return ended ?? null;
    const stateId = resumeDispatchId(record, pending);
    // the resume of this state ended with its work still there, or states keep changing: a new id
    const fresh = stateId === ended?.dispatchId || round >= 2;
    const dispatchId = fresh ? context.config.createId() : stateId;
    // held here in the hot cache: claimed in the same write, so the cached copy is used
    const startedAs =
      context.hotCache.has(record.runId) && !context.stopping.aborted ? context.config.createId() : undefined;
    const input = {
      threadId: record.threadId,
      runId: record.runId,
      dispatchId,
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
      if (AwakenError.hasCode(error, 'dedupe_conflict')) return existingResume(context, error);
      if (fresh || !AwakenError.hasCode(error, 'conflict')) throw error;
      // this state's resume exists: it is the one, or it ended (judge the run as it is now)
      const existing = await mailbox.loadDispatch(dispatchId);
      if (!existing) throw error;
      if (existing.status === 'queued' || existing.status === 'claimed') return existing;
      ended = existing;
      continue;
    }
    if (startedAs !== undefined && dispatch.status === 'claimed') context.execute(dispatch, startedAs);
    return dispatch;
  }
}
