import { AwakenError } from '@awaken/contract';
import type { RunHandle, RunResult } from '../../types';
import type { RunFailureReason } from '../runtime/run-failure';
import { resultOf } from '../runtime/run-result';
import type { RuntimeServices } from '../session/run-session';
import type { LiveRun } from '../activation/start-activation';

export interface CancelRunContext {
  services: RuntimeServices;
  live: Map<string, LiveRun>;
  /** A cold activation of the run whose signal is already aborted with `reason`. */
  resumeAborted(runId: string, reason: string | RunFailureReason): RunHandle;
  waitMs: number;
}

/** The stored outcome once a live activation of this runtime ended; its failure when nothing was stored. */
export async function settledLive(
  context: CancelRunContext,
  runId: string,
  entry: LiveRun,
): Promise<RunResult> {
  const failure = await entry.result.then(
    () => undefined,
    (error: unknown) => error,
  );
  await entry.idle;
  const record = await context.services.store.getRun(runId);
  if (record?.status === 'done') return resultOf(record);
  throw failure ?? new AwakenError('conflict', `run ${runId} was not ended: its activation ended first`);
}

/**
 * Cancels a run and resolves with the stored result once the store holds it done. A run live in
 * this runtime is aborted through its signal; a run held by another process gets a cancel command
 * in the control inbox (its owner aborts at once and ends the run) while this waits — and takes the
 * run over if the owner's lease lapses; any other run is cancelled by a cold activation.
 *
 * The command never outlives the call: once it settles, the cancel it queued is withdrawn, so a
 * `cancelRun` that rejected (`run_busy` after `waitMs`) cannot cancel the run later, and one that
 * resolved leaves no entry in the inbox of the finished run.
 */
export async function cancelRun(
  context: CancelRunContext,
  runId: string,
  reason: string,
): Promise<RunResult> {
  const queued: string[] = [];
  try {
    return await cancelUntilStored(context, runId, reason, queued);
  } finally {
    if (queued.length > 0) await context.services.inbox?.remove(runId, queued).catch(() => {});
  }
}

async function cancelUntilStored(
  context: CancelRunContext,
  runId: string,
  reason: string,
  /** Receives the id of the cancel command put into the inbox, if one was. */
  queued: string[],
): Promise<RunResult> {
  const { services } = context;
  const deadline = Date.now() + context.waitMs;
  while (true) {
    const entry = context.live.get(runId);
    let busy: AwakenError;
    if (entry) {
      entry.cancel(reason);
      try {
        return await settledLive(context, runId, entry);
      } catch (error) {
        // that activation could not take the run: it is held elsewhere, so go through the inbox
        if (!AwakenError.hasCode(error, 'run_busy')) throw error;
      }
    }
    try {
      return await context.resumeAborted(runId, reason).result;
    } catch (error) {
      if (!AwakenError.hasCode(error, 'run_busy')) throw error;
      busy = error;
      // started meanwhile in this runtime: cancel that activation on the next round
      if (context.live.has(runId) && Date.now() < deadline) continue;
    }
    const inbox = services.inbox;
    if (!inbox || Date.now() >= deadline) throw busy;
    if (queued.length === 0) {
      const id = `cancel_${services.createId()}`;
      queued.push(id);
      await inbox.put(runId, { kind: 'cancel', id, reason, at: services.now() });
    }
    await new Promise((resolve) => setTimeout(resolve, Math.min(50, Math.max(5, busy.retryAfterMs ?? 50))));
  }
}
