import { createHash } from 'node:crypto';
import { AwakenError, type RunRecord, decisionViewOf, readToolCallStates } from '@awaken/contract';
import {
  type AgUiEvent,
  type AgUiInputMessage,
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
import type { SubmittedRun } from '../../types';
import type { HttpEnv } from '../http-types';
import { activeRunOrNone } from '../internal/active-run';
import { retryRunId } from '../internal/retry-run-id';
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

/** What makes a user message the same message: the agent it was sent to and its text. */
function messageDigest(agentId: string, message: AgUiInputMessage): string {
  return createHash('sha256')
    .update(JSON.stringify([agentId, contentText(message.content)]))
    .digest('base64url');
}

/**
 * Whether `record` is the run an earlier post of the same user message on the thread started. The
 * same message id with another text (or sent to another agent) is not a retry but a caller's mistake:
 * `validation_failed` naming the message's id, as A2A refuses a reused `messageId` (a run stored
 * before the digest was kept compares by id alone).
 */
function isReplayOf(
  record: RunRecord,
  input: RunAgentInput,
  message: { id: string; agentId: string; digest: string },
): boolean {
  const agUi = (record.context as Record<string, unknown> | undefined)?.[AG_UI_CONTEXT_KEY] as
    | { userMessageId?: unknown; digest?: unknown }
    | undefined;
  if (record.threadId !== input.threadId || agUi?.userMessageId !== message.id) return false;
  const sameDigest = agUi.digest === undefined || agUi.digest === message.digest;
  if (record.agentId === message.agentId && sameDigest) return true;
  const index = input.messages.findLastIndex((entry) => entry.id === message.id);
  throw new AwakenError(
    'validation_failed',
    `messages[${index}].id: message ${message.id} already started run ${record.runId} with other content; a new message needs a new id`,
    { details: { issues: [{ path: `messages[${index}].id`, message: 'reused for another message' }] } },
  );
}

/**
 * Where a new user message's run goes: the client's `runId`, or — when an earlier run of another
 * message has it (a client pinning one id, as CopilotKit does) — an id derived from the thread, that
 * id and the message (`retryRunId`). `earlier` is the run the same request (same thread, `runId`,
 * user message id and content) started before, when it was sent already.
 */
async function runOfMessage(
  c: Context<HttpEnv>,
  input: RunAgentInput,
  agentId: string,
  message: AgUiInputMessage,
): Promise<{ runId: string; earlier?: RunRecord }> {
  const { threadRuns } = c.var.service.stores;
  const same = { id: message.id, agentId, digest: messageDigest(agentId, message) };
  const taken = await threadRuns.getRun(input.runId);
  if (!taken) return { runId: input.runId };
  if (isReplayOf(taken, input, same)) return { runId: taken.runId, earlier: taken };
  const runId = retryRunId('agui', [input.threadId, input.runId, message.id]);
  const derived = await threadRuns.getRun(runId);
  if (derived && isReplayOf(derived, input, same)) return { runId, earlier: derived };
  return { runId };
}

/** The same request again (a client retry, a double submit): the run it started, replayed, then live. */
function replayTurn(c: Context<HttpEnv>, input: RunAgentInput, record: RunRecord): AsyncIterable<AgUiEvent> {
  const { service } = c.var;
  c.var.ids.runId = record.runId;
  const signal = c.req.raw.signal;
  return encodeAgUiRun(replayRun(service, record.runId, signal), {
    threadId: input.threadId,
    runId: input.runId,
    settle: () => settleRun(service, record.runId),
    legacyInterruptEvent: wantsLegacyInterrupt(input),
    signal,
  });
}

/**
 * A new user message: a new run on the thread (after its current work), streamed from its start,
 * under the id `runOfMessage` gives. A parallel copy of the same request that created the run
 * meanwhile (on any process sharing the stores) makes this one its replay.
 */
async function startRun(
  c: Context<HttpEnv>,
  input: RunAgentInput,
  agentId: string,
  message: AgUiInputMessage,
  runId: string,
): Promise<AsyncIterable<AgUiEvent>> {
  const { service } = c.var;
  let run: SubmittedRun;
  try {
    run = await service.submit({
      agentId,
      threadId: input.threadId,
      runId,
      input: contentText(message.content),
      mode: 'foreground',
      ifBusy: 'queue',
      origin: 'user',
      context: runContextOf(c, {
        [AG_UI_CONTEXT_KEY]: { userMessageId: message.id, digest: messageDigest(agentId, message) },
      }),
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
  } catch (error) {
    if (AwakenError.hasCode(error, 'conflict')) {
      const { earlier } = await runOfMessage(c, input, agentId, message);
      if (earlier) return replayTurn(c, input, earlier);
    }
    throw error;
  }
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
 * One `POST …/run`: the same request sent again (same thread, `runId` and last user message, no
 * answers) replays the run it started, whatever the thread does now — a retry never starts a second
 * run; answers for a waiting run resume it; a resume for a run no longer waiting is judged against it
 * (a replay answers how it stands); otherwise the last user message starts a run. Input that cannot
 * be acted on before anything streams throws (`validation_failed` → 422); a refusal of the resume
 * itself is a `RUN_ERROR` event, with nothing applied.
 */
export async function agUiTurn(
  c: Context<HttpEnv>,
  input: RunAgentInput,
  agentId: string,
): Promise<AsyncIterable<AgUiEvent>> {
  const answering =
    input.resume !== undefined ||
    (input.forwardedProps as { command?: unknown } | undefined)?.command !== undefined;
  const message = answering ? undefined : newUserMessage(input);
  const placed = message ? await runOfMessage(c, input, agentId, message) : undefined;
  if (placed?.earlier) return replayTurn(c, input, placed.earlier);
  const view = await activeRunOrNone(c, input.threadId);
  if (view?.kind === 'open') {
    const record = await c.var.service.stores.threadRuns.getRun(view.runId);
    if (!record) throw new AwakenError('not_found', `run ${view.runId} not found`);
    checkRunAgent(record, agentId);
    return resumeRun(c, input, record);
  }
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
  if (!message || !placed) {
    throw new AwakenError(
      'validation_failed',
      'messages: the last message must be a user message, or send resume[]',
      {
        details: { issues: [{ path: 'messages', message: 'no new user message' }] },
      },
    );
  }
  return startRun(c, input, agentId, message, placed.runId);
}
