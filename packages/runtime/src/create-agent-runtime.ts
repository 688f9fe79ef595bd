import { randomUUID } from 'node:crypto';
import { AwakenError, MAX_RUN_LEASE_MS, type UserMessage, threadBranching } from '@awaken/contract';
import { cancelRun } from './internal/commands/cancel-run';
import { deliverDecisions } from './internal/commands/deliver-decisions';
import { failRun } from './internal/commands/fail-run';
import {
  checkReason,
  checkResumeOptions,
  checkRunId,
  checkRunRequest,
  decisionList,
} from './internal/activation/entry-options';
import { createRunRecord, createSession, loadSession } from './internal/activation/load-session';
import { settleOpenRun } from './internal/activation/open-run';
import { requireAgent, resolveAgents } from './internal/runtime/resolve-agents';
import { resolveHandoffs } from './internal/handoff/resolve-handoffs';
import { checkFailure } from './internal/runtime/run-failure';
import { registerInternals } from './internal/runtime/runtime-internals';
import { DEFAULT_THREAD_MEMORY_LIMIT, ThreadMemory } from './internal/session/thread-memory';
import { resolveStores } from './internal/runtime/resolve-stores';
import { checkAgentTools } from './internal/subagents/agent-tool-target';
import { createAgentLookup } from './internal/subagents/inherit-plugins';
import { createChildRunner } from './internal/subagents/create-child-runner';
import { parseRequestExtras } from './internal/runtime/run-request';
import { planFork } from './internal/fork/plan-fork';
import type { RuntimeServices } from './internal/session/run-session';
import { type LiveRun, startActivation } from './internal/activation/start-activation';
import type { CancelRunContext } from './internal/commands/cancel-run';
import type { AgentRuntime, AgentRuntimeOptions, RunRequest } from './types';

const DEFAULT_LEASE_MS = 30_000;

function inputMessages(input: RunRequest['input']): UserMessage[] {
  if (input === undefined) return [];
  return typeof input === 'string'
    ? [{ role: 'user', content: input }]
    : input.map((message) => ({ ...message }));
}

function positiveMs(name: string, value: number | undefined, fallback: number, max: number): number {
  const ms = value ?? fallback;
  if (!Number.isInteger(ms) || ms < 1 || ms > max) {
    throw new AwakenError('invalid_config', `${name} must be an integer from 1 to ${max} ms, got ${ms}`);
  }
  return ms;
}

function threadMemoryLimit(value: number | undefined): number {
  const limit = value ?? DEFAULT_THREAD_MEMORY_LIMIT;
  if (!Number.isInteger(limit) || limit < 0) {
    throw new AwakenError('invalid_config', `threadMemoryLimit must be an integer ≥ 0, got ${limit}`, {
      details: { field: 'threadMemoryLimit' },
    });
  }
  return limit;
}

/**
 * Creates the runtime. Agent definitions and stores are validated here: stop conditions are parsed;
 * duplicate tool names, duplicate agents, agents without a model, a missing or incomplete store and
 * a bad lease setting throw `invalid_config`.
 */
export function createAgentRuntime(options: AgentRuntimeOptions): AgentRuntime {
  const agents = resolveAgents(options.agents, options.model);
  checkAgentTools(agents);
  resolveHandoffs(agents);
  const agentFor = createAgentLookup((agentId) => requireAgent(agents, agentId));
  const stores = resolveStores(options);
  const leaseMs = positiveMs(
    'runLease.leaseMs',
    options.runLease?.leaseMs,
    DEFAULT_LEASE_MS,
    MAX_RUN_LEASE_MS,
  );
  const services: RuntimeServices = {
    store: stores.threadRuns,
    ...(stores.eventLog ? { eventLog: stores.eventLog } : {}),
    ...(stores.inbox ? { inbox: stores.inbox } : {}),
    lease: { leaseMs, renewEveryMs: Math.max(1, Math.floor(leaseMs / 3)) },
    now: options.now ?? Date.now,
    createId: options.createId ?? randomUUID,
    ...(options.onStateChange ? { onStateChange: options.onStateChange } : {}),
    transientModelErrors: options.transientModelErrors ?? 'end_run',
    transientStoreErrors: options.transientStoreErrors ?? 'end_run',
    threadMemory: new ThreadMemory(threadMemoryLimit(options.threadMemoryLimit)),
  };
  const defaultOnAgentChange = options.onAgentChange ?? 'continue';
  if (defaultOnAgentChange !== 'continue' && defaultOnAgentChange !== 'refuse')
    throw new AwakenError('invalid_config', 'onAgentChange must be "continue" or "refuse"');
  const cancelWaitMs = positiveMs('cancelWaitMs', options.cancelWaitMs, 30_000, MAX_RUN_LEASE_MS);
  /** Runs executing in this runtime, registered synchronously when started. */
  const live = new Map<string, LiveRun>();
  const ending: CancelRunContext = {
    services,
    live,
    waitMs: cancelWaitMs,
    resumeAborted: (id, why) => runtime.resumeRun(id, { signal: AbortSignal.abort(why) }),
  };

  const runtime: AgentRuntime = {
    run(request) {
      checkRunRequest(request);
      const agent = requireAgent(agents, request.agentId);
      const extras = parseRequestExtras(agent, request);
      const runId = request.runId ?? services.createId();
      const threadId = request.threadId ?? services.createId();
      const input = inputMessages(request.input);
      return startActivation(
        services,
        live,
        { runId, threadId },
        async (plumbing) => {
          await settleOpenRun(services, threadId, request.onOpenRun ?? 'refuse', runtime.cancelRun);
          return createSession(plumbing, agent, {
            runId,
            threadId,
            input,
            origin: request.origin ?? 'user',
            ...extras,
            ...(request.forkOf ? { forkOf: request.forkOf } : {}),
          });
        },
        {
          resumed: false,
          onSuspend: request.onSuspend ?? 'return',
          ...(request.signal ? { signal: request.signal } : {}),
        },
      );
    },
    async createRun(request) {
      checkRunRequest(request);
      const agent = requireAgent(agents, request.agentId);
      return createRunRecord(services, agent, {
        runId: request.runId ?? services.createId(),
        threadId: request.threadId ?? services.createId(),
        input: inputMessages(request.input),
        origin: request.origin ?? 'user',
        ...parseRequestExtras(agent, request),
        ...(request.forkOf ? { forkOf: request.forkOf } : {}),
        ...(request.newThread ? { newThread: true } : {}),
      });
    },
    planFork(sourceRunId, options) {
      checkRunId(sourceRunId);
      return planFork(services.store, (agentId) => requireAgent(agents, agentId), sourceRunId, options);
    },
    async forkRun(sourceRunId, request) {
      const branching = threadBranching(services.store);
      if (!branching)
        throw new AwakenError('invalid_config', 'forkRun needs a thread store that offers branches');
      const plan = await runtime.planFork(sourceRunId, request);
      const runId = request.runId ?? services.createId();
      checkRunRequest({
        agentId: plan.agentId,
        runId,
        ...(request.threadId ? { threadId: request.threadId } : {}),
      });
      // nothing is written for a fork whose run id is taken
      if (await services.store.getRun(runId))
        throw new AwakenError('conflict', `run ${runId} already exists`, { details: { runId } });
      const branch = await branching.createBranch({
        threadId: plan.forkOf.threadId,
        atSeq: plan.forkOf.atSeq,
        ...(request.threadId ? { id: request.threadId } : {}),
      });
      return runtime.run({
        agentId: plan.agentId,
        runId,
        threadId: branch.id,
        forkOf: plan.forkOf,
        ...(request.signal ? { signal: request.signal } : {}),
        ...(request.onSuspend ? { onSuspend: request.onSuspend } : {}),
        ...(request.context ? { context: request.context } : {}),
      });
    },
    runToCompletion(request) {
      if (request.onSuspend === 'wait' && !services.inbox) {
        // only the handle (which runToCompletion does not return) or an inbox could deliver decisions
        return Promise.reject(
          new AwakenError(
            'validation_failed',
            "runToCompletion({ onSuspend: 'wait' }) would never settle: without stores.inbox no decision can reach the run; use run() and its handle's decide(), or onSuspend: 'return'",
            { details: { field: 'onSuspend' } },
          ),
        );
      }
      return runtime.run(request).result;
    },
    resumeRun(runId, options) {
      checkRunId(runId);
      const resumeOptions = checkResumeOptions(options);
      if (live.has(runId)) {
        throw new AwakenError(
          'run_busy',
          `run ${runId} is live in this runtime; use its handle to decide or cancel`,
          {
            details: { runId },
          },
        );
      }
      const { lease, acquired } = resumeOptions;
      if (
        lease !== undefined &&
        acquired !== undefined &&
        (lease.runId !== acquired.lease.runId ||
          lease.owner !== acquired.lease.owner ||
          lease.fence !== acquired.lease.fence)
      ) {
        throw new AwakenError('validation_failed', 'invalid acquired: it did not grant the lease given', {
          details: { field: 'acquired' },
        });
      }
      return startActivation(
        services,
        live,
        { runId, threadId: '' },
        (plumbing) =>
          loadSession(plumbing, agentFor, runId, resumeOptions.onAgentChange ?? defaultOnAgentChange),
        {
          resumed: true,
          onSuspend: resumeOptions.onSuspend ?? 'return',
          ...(resumeOptions.signal ? { signal: resumeOptions.signal } : {}),
          ...(resumeOptions.decisions ? { decisions: resumeOptions.decisions } : {}),
          ...(resumeOptions.lease || resumeOptions.acquired
            ? { lease: resumeOptions.lease ?? resumeOptions.acquired?.lease }
            : {}),
          ...(resumeOptions.acquired
            ? { acquired: { lastSeq: resumeOptions.acquired.lastSeq, run: resumeOptions.acquired.run } }
            : {}),
        },
      );
    },
    async cancelRun(runId, reason = 'run cancelled') {
      checkRunId(runId);
      checkReason(reason);
      return cancelRun(ending, runId, reason);
    },
    async failRun(runId, failure) {
      checkRunId(runId);
      return failRun(ending, runId, checkFailure(failure));
    },
    async decide(runId, decisions) {
      checkRunId(runId);
      return deliverDecisions(
        { services, live, resume: (id, given) => runtime.resumeRun(id, { decisions: given }) },
        runId,
        decisionList(decisions),
      );
    },
    async shutdown() {
      const running = [...live.values()];
      for (const entry of running) entry.detach('the runtime is shutting down');
      await Promise.all(running.map((entry) => entry.idle));
    },
  };
  services.children = createChildRunner({
    services,
    live,
    agentFor,
    resume: (runId, given) => runtime.resumeRun(runId, given),
    cancel: (runId, reason) => runtime.cancelRun(runId, reason),
  });
  registerInternals(runtime, {
    liveRuns: () => live.size,
    threadMemory: () => services.threadMemory.size,
  });
  return runtime;
}
