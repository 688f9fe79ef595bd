import { AwakenError } from '@awaken/contract';
import type { RunControlService, SubmitRequest, SubmittedRun } from '../../types';
import { cancelRun, interruptThread } from './cancel-run';
import { decideRun } from './decide-run';
import { injectInput } from './inject-input';
import { activeRun, resolveTarget } from './run-lookup';
import type { ServiceContext } from '../service/service-context';

/** Run control over the service's stores; `submit` starts the new runs of `queue` and `interrupt`. */
export function createRunControl(
  context: ServiceContext,
  submit: (request: SubmitRequest) => Promise<SubmittedRun>,
): RunControlService {
  return {
    getActiveRun: (threadId) => activeRun(context, threadId),
    async decide(target, decisions) {
      const list: unknown[] = Array.isArray(decisions) ? decisions : [decisions];
      if (list.length === 0)
        throw new AwakenError('validation_failed', 'decisions: expected at least one decision');
      return decideRun(context, await resolveTarget(context, target), list);
    },
    cancelRun: (runId, reason = 'run cancelled') => cancelRun(context, runId, reason),
    interruptThread: (threadId, reason = 'interrupted') => interruptThread(context, threadId, reason),
    injectUserInput: (request) => injectInput(context, submit, request),
  };
}
