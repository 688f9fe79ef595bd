import type { RunDispatch, RunRecord, Thread } from '@awaken/contract';
import type { HttpEnv } from '../http-types';
import { notFound } from './views';

type RequestVars = { var: HttpEnv['Variables'] };

/** The thread a request names, or a 404; the request's ids carry it either way. */
export async function requireThread(c: RequestVars, threadId: string): Promise<Thread> {
  c.var.ids.threadId = threadId;
  const thread = await c.var.service.stores.threadRuns.getThread(threadId);
  if (!thread) throw notFound(`thread ${threadId}`);
  return thread;
}

/** The run a request names, or a 404; the request's ids carry it either way. */
export async function requireRun(c: RequestVars, runId: string): Promise<RunRecord> {
  c.var.ids.runId = runId;
  const record = await c.var.service.stores.threadRuns.getRun(runId);
  if (!record) throw notFound(`run ${runId}`);
  return record;
}

/** The dispatch a request names, or a 404; once found, the request's ids carry its thread and run. */
export async function requireDispatch(c: RequestVars, dispatchId: string): Promise<RunDispatch> {
  const dispatch = await c.var.service.stores.mailbox.loadDispatch(dispatchId);
  if (!dispatch) throw notFound(`dispatch ${dispatchId}`);
  Object.assign(c.var.ids, { dispatchId, threadId: dispatch.threadId, runId: dispatch.runId });
  return dispatch;
}
