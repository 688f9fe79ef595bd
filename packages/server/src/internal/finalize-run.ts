import type { ServiceContext } from './service-context';

/**
 * Ends a run that will not be delivered again (its dispatch was dead-lettered), so its record says
 * why instead of staying `created` or `running` forever. A run that is done, gone or executing in
 * another activation of this process is left alone. Failures are reported, never thrown: the dispatch is already settled.
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
    await context.runtime.cancelRun(runId, reason);
  } catch (error) {
    context.report(error, `finalizing run ${runId} (${reason})`);
  }
}
