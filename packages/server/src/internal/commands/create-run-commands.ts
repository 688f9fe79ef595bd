// The run commands — decide, cancel, interrupt, inject input, look up the active run — are what a
// caller (in process, or over HTTP) asks of a run: `service.commands`, typed `RunCommands`. They are
// not the run's inbox entries (the contract's `RunControl`: what a command leaves for the run to
// read), nor the HTTP routes (`http/routes/command-routes.ts`, `decision-routes.ts`).
import { AwakenError } from '@awaken/contract';
import type { RunCommands, SubmitRequest, SubmittedRun } from '../../types';
import type { ServiceContext } from '../service/service-context';
import { cancelRun } from './cancel-run';
import { decideRun } from './decide-run';
import { injectInput } from './inject-input';
import { interruptThread } from './interrupt-thread';
import { refuseChildRun } from '../child-runs/refuse-child-run';
import { activeRun, resolveTarget } from './run-lookup';

/** The run commands over the service's stores; `submit` starts the new runs of `queue` and `interrupt`. */
export function createRunCommands(
  context: ServiceContext,
  submit: (request: SubmitRequest) => Promise<SubmittedRun>,
): RunCommands {
  return {
    getActiveRun: (threadId) => activeRun(context, threadId),
    async decide(target, decisions, options = {}) {
      const list: unknown[] = Array.isArray(decisions) ? decisions : [decisions];
      if (list.length === 0)
        throw new AwakenError('validation_failed', 'decisions: expected at least one decision');
      const record = await resolveTarget(context, target);
      await refuseChildRun(context.stores.threadRuns, record, 'answer its tickets');
      return decideRun(context, record, list, options);
    },
    async cancelRun(runId, reason = 'run cancelled') {
      // a child run ends with its parent (cancel cascade); ended alone, its parent would wait on a
      // question nobody can answer any more
      const record = await context.stores.threadRuns.getRun(runId);
      if (record && record.status !== 'done')
        await refuseChildRun(context.stores.threadRuns, record, 'cancel it');
      return cancelRun(context, runId, reason);
    },
    interruptThread: (threadId, reason = 'interrupted') => interruptThread(context, threadId, reason),
    injectUserInput: (request) => injectInput(context, submit, request),
  };
}
