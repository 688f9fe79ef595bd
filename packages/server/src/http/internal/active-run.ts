import { AwakenError, type RunRecord } from '@awaken/contract';
import type { ActiveRunView } from '../../types';
import type { HttpEnv } from '../http-types';

type RequestVars = { var: HttpEnv['Variables'] };

/**
 * The thread's executing or waiting run, or null: an unknown thread has none either (a protocol
 * client names its thread before the first run creates it).
 */
export async function activeRunOrNone(c: RequestVars, threadId: string): Promise<ActiveRunView | null> {
  try {
    return await c.var.service.commands.getActiveRun(threadId);
  } catch (error) {
    if (AwakenError.hasCode(error, 'not_found')) return null;
    throw error;
  }
}

/** What a protocol's stop answers: the stopped run, both null when nothing ran. */
export interface StoppedRun {
  runId: string | null;
  status: string | null;
}

/**
 * Cancels the thread's executing or waiting run with `reason`, after `check` accepts it (it throws
 * to refuse). An unknown thread is a 404, as every unknown id; a thread with nothing to stop names
 * no run.
 */
export async function stopActiveRun(
  c: RequestVars,
  threadId: string,
  options: { reason: string; check?: (record: RunRecord) => void },
): Promise<StoppedRun> {
  c.var.ids.threadId = threadId;
  const view = await c.var.service.commands.getActiveRun(threadId);
  if (!view) return { runId: null, status: null };
  options.check?.(view.record);
  c.var.ids.runId = view.runId;
  const record = await c.var.service.commands.cancelRun(view.runId, options.reason);
  return { runId: record.runId, status: record.status };
}
