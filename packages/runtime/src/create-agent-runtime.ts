import { randomUUID } from 'node:crypto';
import {
  AwakenError,
  type AgentEvent,
  type DecisionReceipt,
  type DecisionRejectionReason,
  type RunRecord,
  type ToolCallDecisionInput,
  type UserMessage,
} from '@awaken/contract';
import { submitDecisions } from './internal/decisions';
import { createEventChannel } from './internal/event-channel';
import { type SessionPlumbing, createSession, loadSession } from './internal/load-session';
import { settleOpenRun } from './internal/open-run';
import { parseRequestExtras } from './internal/run-request';
import { requireAgent, resolveAgents } from './internal/resolve-agents';
import { resolveStores } from './internal/resolve-stores';
import { createRunHandle } from './internal/run-handle';
import { driveRun } from './internal/run-driver';
import type { RunSession, RuntimeServices } from './internal/run-session';
import { type WakeSignal, createWakeSignal } from './internal/wake-signal';
import type { AgentRuntime, AgentRuntimeOptions, OnSuspend, RunHandle, RunRequest, RunResult } from './types';

function resultOf(record: RunRecord): RunResult {
  return {
    runId: record.runId,
    threadId: record.threadId,
    status: record.status,
    termination: record.termination ?? { type: 'natural_end' },
    ...(record.response === undefined ? {} : { response: record.response }),
    usage: record.usage,
    steps: record.steps,
    ...(record.waiting ? { waiting: record.waiting } : {}),
  };
}

function inputMessages(input: RunRequest['input']): UserMessage[] {
  if (input === undefined) return [];
  return typeof input === 'string'
    ? [{ role: 'user', content: input }]
    : input.map((message) => ({ ...message }));
}

function rejectAll(
  decisions: readonly ToolCallDecisionInput[],
  reason: DecisionRejectionReason,
  message: string,
): DecisionReceipt[] {
  return decisions.map((decision) => ({
    ...(decision.toolCallId === undefined ? {} : { toolCallId: decision.toolCallId }),
    ...(decision.ticketId === undefined ? {} : { ticketId: decision.ticketId }),
    decisionId: decision.decisionId,
    status: 'rejected',
    reason,
    message,
  }));
}

/**
 * Creates the runtime. Agent definitions and stores are validated here: stop conditions are parsed;
 * duplicate tool names, duplicate agents, agents without a model and a missing or incomplete store
 * throw `invalid_config`.
 */
export function createAgentRuntime(options: AgentRuntimeOptions): AgentRuntime {
  const agents = resolveAgents(options.agents, options.model);
  const stores = resolveStores(options);
  const services: RuntimeServices = {
    store: stores.threadRuns,
    ...(stores.eventLog ? { eventLog: stores.eventLog } : {}),
    ...(stores.inbox ? { decisionInbox: stores.inbox } : {}),
    now: options.now ?? Date.now,
    createId: options.createId ?? randomUUID,
    ...(options.onStateChange ? { onStateChange: options.onStateChange } : {}),
    transientModelErrors: options.transientModelErrors ?? 'end_run',
    threadMemory: new Map(),
  };
  /**
   * Runs executing in this runtime — registered synchronously when started, before their record is
   * loaded — with their controls and a promise that settles when their activation ends.
   */
  const live = new Map<string, { runController: AbortController; wake: WakeSignal; idle: Promise<void> }>();

  function start(
    ids: { runId: string; threadId: string },
    load: (plumbing: SessionPlumbing) => Promise<RunSession | RunRecord>,
    run: {
      resumed: boolean;
      onSuspend: OnSuspend;
      signal?: AbortSignal;
      decisions?: ToolCallDecisionInput[];
    },
  ): RunHandle {
    const channel = createEventChannel<AgentEvent>();
    const wake = createWakeSignal();
    const runController = new AbortController();
    const abort = (reason: unknown) => {
      if (!runController.signal.aborted)
        runController.abort(typeof reason === 'string' ? reason : 'run cancelled');
      wake.notify();
    };
    if (run.signal?.aborted) abort(run.signal.reason);
    else run.signal?.addEventListener('abort', () => abort(run.signal?.reason), { once: true });
    let threadId = ids.threadId;
    const loaded = load({ services, channel, wake, runController }).then((session) => {
      threadId = session.threadId;
      return session;
    });
    const receipts = loaded.then(async (session) => {
      const decisions = run.decisions ?? [];
      if (!('services' in session))
        return rejectAll(decisions, 'run_finished', `run ${session.runId} is finished`);
      return decisions.length > 0 ? submitDecisions(session, decisions) : [];
    });
    let markIdle: () => void = () => {};
    const idle = new Promise<void>((resolve) => {
      markIdle = resolve;
    });
    // a run() reusing the id of a live run fails at createRun; it must not take over the live entry
    if (!live.has(ids.runId)) live.set(ids.runId, { runController, wake, idle });
    const result = (async () => {
      let unsubscribe: (() => Promise<void>) | undefined;
      try {
        const session = await loaded;
        if (!('services' in session)) return resultOf(session);
        await receipts;
        if (services.decisionInbox) {
          unsubscribe = await services.decisionInbox.subscribe(session.runId, () => wake.notify());
        }
        try {
          return await driveRun(session, { resumed: run.resumed, onSuspend: run.onSuspend });
        } finally {
          session.live = false;
        }
      } catch (error) {
        channel.close(error);
        throw error;
      } finally {
        if (live.get(ids.runId)?.idle === idle) live.delete(ids.runId);
        markIdle();
        channel.close();
        await unsubscribe?.();
      }
    })();
    return createRunHandle({
      runId: ids.runId,
      threadId: () => threadId,
      channel,
      result,
      receipts,
      async decide(decisions) {
        const session = await loaded;
        if (!('services' in session) || (!session.live && session.status === 'done')) {
          return rejectAll(decisions, 'run_finished', `run ${ids.runId} is finished`);
        }
        if (!session.live) {
          return rejectAll(
            decisions,
            'not_live',
            `run ${ids.runId} has no live activation here; deliver decisions with runtime.resumeRun(runId, { decisions })`,
          );
        }
        return submitDecisions(session, decisions);
      },
      cancel: (reason) => abort(reason ?? 'run cancelled'),
    });
  }

  const runtime: AgentRuntime = {
    run(request) {
      const agent = requireAgent(agents, request.agentId);
      const extras = parseRequestExtras(agent, request);
      const runId = request.runId ?? services.createId();
      const threadId = request.threadId ?? services.createId();
      const input = inputMessages(request.input);
      return start(
        { runId, threadId },
        async (plumbing) => {
          await settleOpenRun(services, threadId, request.onOpenRun ?? 'refuse', runtime.cancelRun);
          return createSession(plumbing, agent, {
            runId,
            threadId,
            input,
            origin: request.origin ?? 'user',
            ...extras,
          });
        },
        {
          resumed: false,
          onSuspend: request.onSuspend ?? 'return',
          ...(request.signal ? { signal: request.signal } : {}),
        },
      );
    },
    runToCompletion(request) {
      if (request.onSuspend === 'wait' && !services.decisionInbox) {
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
    resumeRun(runId, resumeOptions = {}) {
      if (live.has(runId)) {
        throw new AwakenError(
          'conflict',
          `run ${runId} is live in this runtime; use its handle to decide or cancel`,
        );
      }
      return start(
        { runId, threadId: '' },
        (plumbing) => loadSession(plumbing, (agentId) => requireAgent(agents, agentId), runId),
        {
          resumed: true,
          onSuspend: resumeOptions.onSuspend ?? 'return',
          ...(resumeOptions.signal ? { signal: resumeOptions.signal } : {}),
          ...(resumeOptions.decisions ? { decisions: resumeOptions.decisions } : {}),
        },
      );
    },
    async cancelRun(runId, reason = 'run cancelled') {
      const entry = live.get(runId);
      if (entry) {
        entry.runController.abort(reason);
        entry.wake.notify();
        await entry.idle;
        return storedResult(runId);
      }
      return runtime.resumeRun(runId, { signal: AbortSignal.abort(reason) }).result;
    },
  };

  async function storedResult(runId: string): Promise<RunResult> {
    const record = await services.store.getRun(runId);
    if (!record) throw new AwakenError('not_found', `run ${runId} not found`);
    return resultOf(record);
  }

  return runtime;
}
