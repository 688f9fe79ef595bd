import { AwakenError, type RunContext, type RunDispatch } from '@awaken/contract';
import type { RequeuedRun } from '../../types';
import type { ServiceContext } from '../service/service-context';
import { type SubmitCommands, submitRun } from '../submit/submit-run';
import { runInput } from './run-input';

const exists = (error: unknown) => AwakenError.hasCode(error, 'conflict');

/**
 * Requeues a dead letter as a new background run of the same agent, thread and input — once. The
 * new run's ids are reserved on the dead letter first (`markRequeued`, atomic in the store), so a
 * double click, a retried request or two processes at once all answer the same run. A requeue that
 * failed after reserving (a crash, a waiting run in the way) is completed by the next one under the
 * same ids: `createRun` and `enqueue` refuse a second copy, so the input never runs twice.
 */
export async function requeueDeadLetter(
  context: ServiceContext,
  commands: SubmitCommands,
  dispatchId: string,
  runContext: RunContext | undefined,
): Promise<RequeuedRun> {
  const { mailbox, threadRuns } = context.stores;
  const dead = await mailbox.loadDispatch(dispatchId);
  if (!dead) throw new AwakenError('not_found', `dispatch ${dispatchId} not found`);
  if (dead.status !== 'dead_letter') {
    throw new AwakenError('conflict', `dispatch ${dispatchId} is ${dead.status}, not a dead letter`);
  }
  const record = await threadRuns.getRun(dead.runId);
  if (!record) throw new AwakenError('not_found', `run ${dead.runId} not found`);
  const marked: RunDispatch = dead.requeuedRunId
    ? dead
    : await mailbox.markRequeued({
        dispatchId,
        runId: context.config.createId(),
        requeueDispatchId: context.config.createId(),
      });
  const runId = marked.requeuedRunId as string;
  const newDispatchId = marked.requeuedDispatchId as string;
  const answer = { runId, threadId: record.threadId, dispatchId: newDispatchId, requeuedFrom: dispatchId };
  if (await mailbox.loadDispatch(newDispatchId)) return answer;

  if (!(await threadRuns.getRun(runId))) {
    try {
      await submitRun(
        context,
        commands,
        {
          agentId: record.agentId,
          threadId: record.threadId,
          runId,
          input: await runInput(context.stores, record),
          mode: 'background',
          ifBusy: 'queue',
          priority: dead.priority,
          origin: record.origin,
          ...(runContext ? { context: runContext } : {}),
        },
        newDispatchId,
      );
      return answer;
    } catch (error) {
      // a concurrent requeue created the run first; anything else (a waiting run in the way) stands
      if (!exists(error) || !(await threadRuns.getRun(runId))) throw error;
    }
  }
  // the run exists without its dispatch: its requeue stopped in between, or is still under way
  try {
    await mailbox.enqueue({
      threadId: record.threadId,
      runId,
      dispatchId: newDispatchId,
      maxAttempts: context.config.maxAttempts,
      priority: dead.priority,
    });
  } catch (error) {
    if (!exists(error) || !(await mailbox.loadDispatch(newDispatchId))) throw error;
  }
  return answer;
}
