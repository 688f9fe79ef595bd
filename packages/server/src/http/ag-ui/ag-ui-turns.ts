import { AwakenError, type RunRecord, decisionViewOf, readToolCallStates } from '@awaken/contract';
import {
  type AgUiEvent,
  type RunAgentInput,
  agUiErrorEvents,
  contentText,
  encodeAgUiRun,
  isFrontendTicket,
  judgeResume,
  newUserMessage,
  openTicketsOf,
  resumeEntriesOf,
  supersededToolMessages,
} from '@awaken/protocol-ag-ui';
import type { Context } from 'hono';
import { replayRun } from '../ai-sdk/ai-sdk-stream';
import type { HttpEnv } from '../http-types';
import { activeRunOrNone } from '../internal/active-run';
import { callerOf, runContextOf } from '../internal/run-context';
import { AG_UI_CONTEXT_KEY, settleRun } from './ag-ui-ending';

/** Reads `forwardedProps.awaken.legacyInterruptEvent`: also send the pre-1.0 `on_interrupt` event. */
function wantsLegacyInterrupt(input: RunAgentInput): boolean {
  const props = input.forwardedProps as { awaken?: { legacyInterruptEvent?: unknown } } | undefined;
  return props?.awaken?.legacyInterruptEvent === true;
}

/** The run a resume addresses when none is open: the pinned `runId` (CopilotKit), else the latest. */
async function resumedRunOf(c: Context<HttpEnv>, input: RunAgentInput): Promise<RunRecord | null> {
  const { threadRuns } = c.var.service.stores;
  const pinned = await threadRuns.getRun(input.runId);
  if (pinned?.threadId === input.threadId) return pinned;
  try {
    const page = await threadRuns.listRuns(input.threadId, { limit: 1 });
    return page.items[0] ?? null;
  } catch (error) {
    if (AwakenError.hasCode(error, 'not_found')) return null;
    throw error;
  }
}

/** Whether `record` is the run an earlier post of the same user message on the thread started. */
function isReplayOf(record: RunRecord, threadId: string, userMessageId: string): boolean {
  const agUi = (record.context as Record<string, unknown> | undefined)?.[AG_UI_CONTEXT_KEY] as
    | { userMessageId?: unknown }
    | undefined;
  return record.threadId === threadId && agUi?.userMessageId === userMessageId;
}

/** A new user message: a new run on the thread (after its current work), streamed from its start. */
async function startRun(
  c: Context<HttpEnv>,
  input: RunAgentInput,
  agentId: string,
): Promise<AsyncIterable<AgUiEvent>> {
  const message = newUserMessage(input);
  if (!message) {
    throw new AwakenError(
      'validation_failed',
      'messages: the last message must be a user message, or send resume[]',
      {
        details: { issues: [{ path: 'messages', message: 'no new user message' }] },
      },
    );
  }
  const { service } = c.var;
  // the client's run id names our run, unless a run has it already (a client pinning an old id)
  const taken = await service.stores.threadRuns.getRun(input.runId);
  if (taken && isReplayOf(taken, input.threadId, message.id)) {
    // the same request again (a client retry, a double submit): replay the run it started
    c.var.ids.runId = taken.runId;
    const signal = c.req.raw.signal;
    return encodeAgUiRun(replayRun(service, taken.runId, signal), {
      threadId: input.threadId,
      runId: input.runId,
      settle: () => settleRun(service, taken.runId),
      legacyInterruptEvent: wantsLegacyInterrupt(input),
      signal,
    });
  }
  const run = await service.submit({
    agentId,
    threadId: input.threadId,
    ...(taken ? {} : { runId: input.runId }),
    input: contentText(message.content),
    mode: 'foreground',
    ifBusy: 'queue',
    origin: 'user',
    context: runContextOf(c, { [AG_UI_CONTEXT_KEY]: { userMessageId: message.id } }),
    ...(input.tools.length > 0
      ? {
          tools: input.tools.map((tool) => ({
            name: tool.name,
            description: tool.description,
            parameters: tool.parameters ?? { type: 'object' },
          })),
        }
      : {}),
  });
  Object.assign(c.var.ids, { runId: run.runId, dispatchId: run.dispatchId });
  const signal = c.req.raw.signal;
  return encodeAgUiRun(run.events({ signal }), {
    threadId: input.threadId,
    runId: input.runId,
    settle: () => settleRun(service, run.runId),
    legacyInterruptEvent: wantsLegacyInterrupt(input),
    signal,
  });
}

/**
 * Answers to the run's interrupts (`resume[]`, the legacy `forwardedProps.command.resume`) and its
 * frontend tool calls (`role:"tool"` messages), judged against the run as stored; all or nothing.
 * What is accepted is delivered with `decide` and the run's continuation streamed; a replay of
 * answers already applied streams no event twice, only how the run stands.
 */
async function resumeRun(
  c: Context<HttpEnv>,
  input: RunAgentInput,
  record: RunRecord,
): Promise<AsyncIterable<AgUiEvent>> {
  const { service } = c.var;
  c.var.ids.runId = record.runId;
  const ids = { threadId: input.threadId, runId: input.runId };
  // judged at this moment: an answer to an expired ticket is refused `ticket_expired`
  const view = decisionViewOf(record, Date.now());
  const open = openTicketsOf(view);
  const interruptIds = open.filter((ticket) => !isFrontendTicket(ticket)).map((ticket) => ticket.ticketId);
  const judged = judgeResume({
    run: view,
    resume: resumeEntriesOf(input, interruptIds),
    messages: input.messages,
    context: { caller: callerOf(c) },
    decidedBy: c.var.caller.subject,
  });
  if ('error' in judged) return toAsync(agUiErrorEvents(ids, judged.error));
  // answering an interrupt (not a frontend tool's output) is deciding, as on /v1/…/decision
  const interrupts = new Set(interruptIds);
  const answersInterrupt = judged.decisions.some(
    (decision) => decision.ticketId !== undefined && interrupts.has(decision.ticketId),
  );
  if (answersInterrupt && !c.var.caller.scopes.includes('decide')) {
    return toAsync(
      agUiErrorEvents(ids, {
        code: 'forbidden_scope',
        message: `this token lacks the "decide" scope (it has: ${c.var.caller.scopes.join(', ') || 'none'})`,
      }),
    );
  }
  if (judged.decisions.length === 0 && judged.duplicates.length === 0) {
    const waiting = open.map((ticket) => ticket.ticketId).join(', ');
    return toAsync(
      agUiErrorEvents(ids, {
        code: 'interrupt_pending',
        message: `run ${record.runId} waits on ${waiting}: answer them in resume[] (or a tool message for a frontend tool) before a new message`,
      }),
    );
  }
  const history = await service.stores.eventLog.read(record.runId);
  const afterSeq = history.at(-1)?.seq ?? 0;
  if (judged.decisions.length > 0) {
    // judged once, by the answer rules: not again while the run stands at the version judged
    const result = await service.commands.decide({ runId: record.runId }, judged.decisions, {
      prejudged: {
        version: record.version,
        decisionIds: new Set(judged.decisions.map((decision) => decision.decisionId)),
      },
    });
    const rejected = result.receipts.filter((receipt) => receipt.status === 'rejected');
    if (rejected.length === result.receipts.length) {
      const why = rejected
        .map((receipt) => (receipt.status === 'rejected' ? receipt.message : ''))
        .join('; ');
      return toAsync(
        agUiErrorEvents(ids, { code: 'decision_rejected', message: `nothing was applied: ${why}` }),
      );
    }
  }
  const signal = c.req.raw.signal;
  // only answers already applied: follow a run still working, else just say how it stands
  const live = judged.decisions.length > 0 || (record.status !== 'done' && record.status !== 'waiting');
  // CopilotKit's synthetic tool message for an interrupted call: the server's result replaces it
  const superseded = supersededToolMessages(input.messages, {
    runId: record.runId,
    calls: readToolCallStates(record),
  });
  return encodeAgUiRun(live ? service.follow(record.runId, { afterSeq, signal }) : toAsync([]), {
    threadId: input.threadId,
    runId: input.runId,
    history,
    clientAnswered: judged.clientAnswered,
    closingSnapshot: superseded.length > 0,
    settle: () => settleRun(service, record.runId),
    legacyInterruptEvent: wantsLegacyInterrupt(input),
    signal,
  });
}

/** A run reached through an agent's path must be that agent's: another agent's path is a 404. */
export function checkRunAgent(record: { runId: string; agentId: string }, agentId: string | undefined): void {
  if (agentId !== undefined && record.agentId !== agentId)
    throw new AwakenError('not_found', `run ${record.runId} is not a run of agent "${agentId}"`, {
      details: { agentId },
    });
}

async function* toAsync<T>(items: Iterable<T>): AsyncGenerator<T> {
  yield* items;
}

/**
 * One `POST …/run`: answers for a waiting run resume it; a resume for a run no longer waiting is
 * judged against it (a replay answers how it stands); otherwise the last user message starts a run.
 * Input that cannot be acted on before anything streams throws (`validation_failed` → 422); a
 * refusal of the resume itself is a `RUN_ERROR` event, with nothing applied.
 */
export async function agUiTurn(
  c: Context<HttpEnv>,
  input: RunAgentInput,
  agentId: string,
): Promise<AsyncIterable<AgUiEvent>> {
  const view = await activeRunOrNone(c, input.threadId);
  if (view?.kind === 'open') {
    const record = await c.var.service.stores.threadRuns.getRun(view.runId);
    if (!record) throw new AwakenError('not_found', `run ${view.runId} not found`);
    checkRunAgent(record, agentId);
    return resumeRun(c, input, record);
  }
  const answering =
    input.resume !== undefined ||
    (input.forwardedProps as { command?: unknown } | undefined)?.command !== undefined;
  if (answering) {
    const record = view
      ? await c.var.service.stores.threadRuns.getRun(view.runId)
      : await resumedRunOf(c, input);
    if (!record) {
      return toAsync(
        agUiErrorEvents(input, {
          code: 'unknown_interrupt',
          message: `thread ${input.threadId} has no run to resume`,
        }),
      );
    }
    checkRunAgent(record, agentId);
    return resumeRun(c, input, record);
  }
  return startRun(c, input, agentId);
}
