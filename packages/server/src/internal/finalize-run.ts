import type { ServiceContext } from './service-context';

/** The `code` of the `error` termination of a run the service gave up on (its dispatch was dead-lettered). */
export const DEAD_LETTERED = 'dead_lettered';

/**
 * Ends a run that will not be delivered again (its dispatch was dead-lettered) with the `error`
 * termination (`code: 'dead_lettered'`, the reason as its message), so its record says why instead
 * of staying `created` or `running` forever — and does not claim a person cancelled it. A run that
 * is done, gone, executing in another activation of this process or held by another process is
 * left alone. Failures are reported, never thrown: the dispatch is already settled.
 */
export async function finalizeRun(
  context: ServiceContext,
  runId: string,
  reason: string,
  /** The dispatch settling the run's own activation, which does not count as another one. */
  settling?: string,
): Promise<void> {
  try {
    const record = await context.stores.threadRuns.getRun(runId);
    if (!record || record.status === 'done') return;
    const live = context.live.get(runId);
    if (live && live.dispatch.dispatchId !== settling) return;
    await context.runtime.failRun(runId, { message: reason, code: DEAD_LETTERED });
  } catch (error) {
    context.report(error, `finalizing run ${runId} (${reason})`);
  }
}
