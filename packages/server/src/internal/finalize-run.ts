import type { ServiceContext } from './service-context';

/**
 * Ends a run that will not be delivered again (its dispatch was dead-lettered), so its record says
 * why instead of staying `created` or `running` forever. A run that is done, gone or executing in
 * this process is left alone. Failures are reported, never thrown: the dispatch is already settled.
 */
export async function finalizeRun(context: ServiceContext, runId: string, reason: string): Promise<void> {
  try {
    const record = await context.stores.threadRuns.getRun(runId);
    if (!record || record.status === 'done' || context.live.has(runId)) return;
    await context.runtime.cancelRun(runId, reason);
  } catch (error) {
    context.report(error, `finalizing run ${runId} (${reason})`);
  }
}
