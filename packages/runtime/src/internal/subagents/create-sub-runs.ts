import {
  AwakenError,
  type DecisionReceipt,
  type SubRunOutcome,
  type SubRunRequest,
  type SubRuns,
  type ToolCallState,
  type UserMessage,
} from '@awaken/contract';
import type { RunHandle, RunResult } from '../../types';
import type { RunSession } from '../session/run-session';
import { childIdsOf } from '../child-ids/child-ids';
import type { ChildRunner } from '../session/child-runner';

/**
 * How many levels of sub-agents a top-level run may nest (its children are level 1). Delegation may
 * cycle (an agent that is its own sub-agent, A → B → A): past this, the call fails instead of starting
 * a child, and its model reads why — unbounded, nested child runs grow until the process runs out of
 * memory.
 */
export const MAX_SUB_AGENT_DEPTH = 8;

/** The agent path of a session's run: stored for a child run, the run's agent alone otherwise. */
export function agentPathOf(session: RunSession): string[] {
  return session.run.record.agentPath ?? [session.agent.id];
}

function messagesOf(input: SubRunRequest['input']): UserMessage[] {
  if (typeof input === 'string') return [{ role: 'user', content: input }];
  if (!Array.isArray(input))
    throw new AwakenError('validation_failed', 'sub-run input must be a string or user messages');
  return input.map((message) => ({ ...message }));
}

/**
 * Ties a child's activation to its parent's: a cancel (or timeout, or failRun) of the parent cancels
 * the child with the parent's reason; a parent that detaches or loses its lease detaches the child,
 * which stops without an outcome and is continued by the parent's next activation.
 */
function linkToParent(session: RunSession) {
  const { activation } = session;
  const controller = new AbortController();
  let current: RunHandle | undefined;
  let done = false;
  const detachChild = () => current?.detach(`its parent run ${session.runId} stopped here`);
  const onAbort = () => {
    if (activation.halt) detachChild();
    else if (!controller.signal.aborted) controller.abort(activation.abortMessage());
  };
  const parentSignal = activation.signal;
  parentSignal.addEventListener('abort', onAbort, { once: true });
  // a detach does not abort the parent's signal: it wakes its activation
  void (async () => {
    while (!done) {
      await activation.wake.wait();
      if (!done && activation.halt) detachChild();
    }
  })();
  return {
    signal: controller.signal,
    follow(handle: RunHandle): RunHandle {
      current = handle;
      if (activation.halt) detachChild();
      return handle;
    },
    dispose() {
      done = true;
      parentSignal.removeEventListener('abort', onAbort);
    },
  };
}

type Attempt = { result: RunResult } | { error: unknown };

/**
 * Runs one activation of the child. A child held by another activation (`run_busy`) is tried again:
 * after a crash the dead process's lease on the child lapses a little after the parent's, and the
 * parent's call executed again must continue the child, not fail. It gives up after twice the lease
 * (plus a second), or at once when the parent stops.
 */
async function attempt(session: RunSession, start: () => RunHandle): Promise<Attempt> {
  const deadline = Date.now() + 2 * session.services.lease.leaseMs + 1_000;
  while (true) {
    try {
      return { result: await start().result };
    } catch (error) {
      const { activation } = session;
      const stopped = activation.signal.aborted || activation.halt !== undefined;
      if (!AwakenError.hasCode(error, 'run_busy') || stopped || Date.now() >= deadline) return { error };
      const wait = Math.min(200, Math.max(10, error.retryAfterMs ?? 50));
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }
}

/**
 * `ToolExecuteContext.subRuns` for one call of a session: runs the call's child inline (see
 * `SubRuns`). The child is created when the call has no decision to forward (a `conflict` means an
 * earlier execution created it: it is continued), else continued with the decisions.
 */
export function createSubRuns(session: RunSession, state: ToolCallState, children: ChildRunner): SubRuns {
  return {
    async run(request: SubRunRequest): Promise<SubRunOutcome> {
      const ids = childIdsOf({ runId: session.runId, step: state.step, callId: state.callId });
      const agentPath = [...agentPathOf(session), request.agentId];
      if (agentPath.length - 1 > MAX_SUB_AGENT_DEPTH) {
        throw new AwakenError(
          'validation_failed',
          `the "${request.agentId}" agent would run ${agentPath.length - 1} levels deep (${agentPath.join(' › ')}): sub-agents do not nest deeper than ${MAX_SUB_AGENT_DEPTH} levels`,
        );
      }
      const input = messagesOf(request.input);
      const decisions = request.decisions ?? [];
      session.activation.signal.throwIfAborted();
      session.events.post({
        type: 'subagent_start',
        toolCallId: state.callId,
        childRunId: ids.runId,
        childThreadId: ids.threadId,
        agentId: request.agentId,
        agentPath,
      });
      const link = linkToParent(session);
      let created = false;
      let receipts: DecisionReceipt[] = [];
      let outcome: Attempt | undefined;
      try {
        if (decisions.length === 0) {
          const context = session.run.record.context;
          outcome = await attempt(session, () =>
            link.follow(
              children.start({
                ...ids,
                agentId: request.agentId,
                agentPath,
                parentRunId: session.runId,
                parentCallId: state.callId,
                input,
                ...(context ? { context } : {}),
                signal: link.signal,
              }),
            ),
          );
          created = 'result' in outcome;
          if ('error' in outcome && AwakenError.hasCode(outcome.error, 'conflict')) outcome = undefined;
        }
        if (outcome === undefined) {
          let handle: RunHandle | undefined;
          outcome = await attempt(session, () => {
            handle = link.follow(children.resume(ids.runId, { decisions, signal: link.signal }));
            return handle;
          });
          receipts = (await handle?.receipts.catch(() => [])) ?? [];
        }
      } finally {
        link.dispose();
      }
      if ('error' in outcome) {
        const halted = session.activation.halt;
        session.events.post({
          type: 'subagent_finish',
          toolCallId: state.callId,
          childRunId: ids.runId,
          status: halted ? 'detached' : 'failed',
        });
        // the parent stops without an outcome for this call: its next activation continues the child
        if (halted) throw halted;
        throw outcome.error;
      }
      const { result } = outcome;
      session.events.post({
        type: 'subagent_finish',
        toolCallId: state.callId,
        childRunId: ids.runId,
        status: result.status === 'waiting' ? 'waiting' : 'done',
        termination: result.termination,
        ...(result.waiting ? { waitingTicketIds: [...result.waiting.ticketIds] } : {}),
      });
      return {
        runId: result.runId,
        threadId: result.threadId,
        agentId: request.agentId,
        agentPath,
        created,
        status: result.status,
        termination: result.termination,
        ...(result.response === undefined ? {} : { response: result.response }),
        ...(result.waiting ? { waiting: result.waiting } : {}),
        receipts,
      };
    },
  };
}
