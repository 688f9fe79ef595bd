import type { RunHandle, RunResult } from '../../types';
import { type LiveRun, startActivation } from '../activation/start-activation';
import type { ResolvedAgent } from '../runtime/resolve-agents';
import type { RuntimeServices } from '../session/run-session';
import type { ChildRunner } from '../session/child-runner';
import { createChildSession } from './create-child-session';

export interface ChildRunnerParts {
  services: RuntimeServices;
  live: Map<string, LiveRun>;
  /** The agent a run of `agentId` at `agentPath` executes as (with its inherited plugins). */
  agentFor(agentId: string, agentPath?: readonly string[]): ResolvedAgent;
  resume: ChildRunner['resume'];
  cancel(runId: string, reason: string): Promise<RunResult>;
}

/**
 * The runtime's child runner: a child is created and activated like `run` does (its own lease,
 * checkpoints and event log, registered as live in this runtime), with `origin: 'internal'`, its
 * parent's ids and its agent path stored on its record; it is continued and cancelled through the
 * runtime's own `resumeRun` and `cancelRun`. Every activation returns when the child waits. The
 * first activation, driven by the parent, keeps its inbox quiet (`StartOptions.quietInbox`) and
 * skips the fence raise a first lease needs not (`createChildSession`).
 */
export function createChildRunner(parts: ChildRunnerParts): ChildRunner {
  return {
    start(child): RunHandle {
      const agent = parts.agentFor(child.agentId, child.agentPath);
      const { runId, threadId } = child;
      return startActivation(
        parts.services,
        parts.live,
        { runId, threadId },
        (plumbing) =>
          createChildSession(plumbing, agent, {
            runId,
            threadId,
            input: child.input,
            origin: 'internal',
            parentRunId: child.parentRunId,
            parentCallId: child.parentCallId,
            agentPath: child.agentPath,
            ...(child.context ? { context: child.context } : {}),
          }),
        { resumed: false, onSuspend: 'return', signal: child.signal, quietInbox: true },
      );
    },
    resume: parts.resume,
    cancel: parts.cancel,
  };
}
