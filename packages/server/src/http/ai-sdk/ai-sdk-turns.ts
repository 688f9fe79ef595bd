import { AwakenError, type RunRecord, decisionViewOf } from '@awaken/contract';
import {
  type ChatRequest,
  type ChatTurn,
  type UiMessageChunk,
  encodeUiMessageStream,
  matchDecisions,
} from '@awaken/protocol-ai-sdk';
import type { Context } from 'hono';
import type { IfBusy, SubmittedRun } from '../../types';
import type { HttpEnv } from '../http-types';
import { retryRunId } from '../internal/retry-run-id';
import { callerOf, runContextOf } from '../internal/run-context';
import { replayRun } from './ai-sdk-stream';
import { chatBranchFor, chatThreadOf, withThreadPart } from './chat-branch';

/** Why a chat request cannot be acted on: the route answers 400 with this message. */
export class NothingToDo extends Error {
  constructor(
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
  }
}

const IF_BUSY: ReadonlySet<string> = new Set(['interrupt', 'queue', 'conflict']);

/**
 * What a new message does when the chat's thread is busy. By default (`queue`) it runs after a run
 * that is still finishing, and is refused (409) while a run waits for approvals or client tools —
 * the core's open-run policy; `ifBusy: 'interrupt'` in the body cancels the waiting run instead.
 */
function ifBusyOf(request: ChatRequest, fallback: IfBusy): IfBusy {
  const value = request.body.ifBusy;
  if (value === undefined) return fallback;
  if (typeof value !== 'string' || !IF_BUSY.has(value))
    throw new AwakenError('validation_failed', "ifBusy: expected 'interrupt', 'queue' or 'conflict'");
  return value as IfBusy;
}

/** The answer of a run a message already started: its stream replayed from its start, then live. */
function replayed(c: Context<HttpEnv>, record: RunRecord): AsyncIterable<UiMessageChunk> {
  Object.assign(c.var.ids, { threadId: record.threadId, runId: record.runId });
  return encodeUiMessageStream(replayRun(c.var.service, record.runId, c.req.raw.signal), {
    messageId: record.runId,
  });
}

/**
 * A new user message (or a regenerate): a new run on the chat's thread, streamed from its start. A
 * new message runs under the id its chat, id and text give (`retryRunId`): the same message sent
 * again (a retried request after a lost answer, on any process sharing the stores) answers with the
 * run it started — its stream replayed, then live — never a second run. The same id with another text
 * is another message (`sendMessage({ messageId })` edits a message): a new run. A regenerate asks for
 * a new answer each time. The turn runs on the body's `threadId` when given (a branch), else on the
 * chat id's thread. A regenerate, or an edit of an earlier message, runs on a new branch of that
 * thread at the point the client's history goes back to (see `chatBranchFor`), so the earlier answer
 * stays reachable; the stream then carries a transient `data-awaken-thread` part naming the branch
 * right after its `start` chunk, and the `x-thread-id` header names it too.
 */
export async function startTurn(
  c: Context<HttpEnv>,
  request: ChatRequest,
  turn: Extract<ChatTurn, { type: 'message' | 'regenerate' }>,
  agentId: string,
): Promise<AsyncIterable<UiMessageChunk>> {
  const { service } = c.var;
  const threadId = chatThreadOf(request);
  const runId =
    turn.type === 'message' ? retryRunId('chat', [request.id, turn.userMessageId, turn.text]) : undefined;
  // the same message sent again answers with the run it started (before anything branches anew)
  const earlier = runId === undefined ? null : await service.stores.threadRuns.getRun(runId);
  if (earlier) return replayed(c, earlier);
  if (threadId !== request.id && !(await service.stores.threadRuns.getThread(threadId)))
    throw new AwakenError('not_found', `thread ${threadId} not found`);
  const branch = await chatBranchFor(service.stores.threadRuns, request, turn, threadId);
  const ifBusy = ifBusyOf(request, turn.type === 'regenerate' ? 'interrupt' : 'queue');
  // the branch supersedes the work where the conversation went back from: with `interrupt` (a
  // regenerate's default) the source thread is interrupted, as it would be for a turn on it
  if (branch && ifBusy === 'interrupt')
    await service.commands.interruptThread(threadId, `superseded by a turn on branch ${branch.thread.id}`);
  let run: SubmittedRun;
  try {
    run = await service.submit({
      agentId,
      threadId: branch?.thread.id ?? threadId,
      ...(runId === undefined ? {} : { runId }),
      input: turn.text,
      mode: 'foreground',
      ifBusy,
      origin: 'user',
      context: runContextOf(c, undefined),
    });
  } catch (error) {
    // the run exists: the same message started it (before, or meanwhile on another process)
    const raced =
      runId !== undefined && AwakenError.hasCode(error, 'conflict')
        ? await service.stores.threadRuns.getRun(runId)
        : null;
    if (raced) return replayed(c, raced);
    throw error;
  }
  Object.assign(c.var.ids, { threadId: run.threadId, runId: run.runId, dispatchId: run.dispatchId });
  const chunks = encodeUiMessageStream(run.events({ signal: c.req.raw.signal }), { messageId: run.runId });
  return branch ? withThreadPart(chunks, branch.part) : chunks;
}

/**
 * Decisions for the chat's waiting run, taken from the tool parts of its last assistant message but
 * checked against the tickets the store holds; the continuation streams into the same message.
 */
export async function continueTurn(
  c: Context<HttpEnv>,
  request: ChatRequest,
  turn: Extract<ChatTurn, { type: 'continue' }>,
): Promise<AsyncIterable<UiMessageChunk>> {
  const { service } = c.var;
  const threadId = chatThreadOf(request);
  c.var.ids.threadId = threadId;
  const view = await service.commands.getActiveRun(threadId);
  if (view?.kind !== 'open')
    throw new AwakenError('conflict', `no run of chat ${threadId} waits for an approval or a tool output`);
  c.var.ids.runId = view.runId;
  if (turn.messageId !== view.runId)
    throw new AwakenError(
      'conflict',
      `the last assistant message (${turn.messageId}) is not the waiting run of chat ${request.id} (${view.runId})`,
    );
  const record = await service.stores.threadRuns.getRun(view.runId);
  if (!record) throw new AwakenError('not_found', `run ${view.runId} not found`);
  const { decisions, rejected, conflicts, accepted } = matchDecisions({
    proposals: turn.proposals,
    // judged at this moment: an approval whose ticket expired is reported `expired`
    run: decisionViewOf(record, Date.now()),
    context: { caller: callerOf(c) },
    decidedBy: c.var.caller.subject,
  });
  // a request answering one call two ways is refused whole: nothing of it is applied
  if (conflicts.length > 0)
    throw new NothingToDo(
      `${conflicts.map((id) => `call "${id}"`).join(', ')} answered twice, differently, in one request: nothing was applied`,
      { conflicts },
    );
  if (decisions.length === 0) {
    const why = rejected.map((entry) => entry.message).join('; ');
    throw new NothingToDo(`nothing to continue: ${why}`, {
      rejected: rejected.map(({ proposal, reason }) => ({ toolCallId: proposal.toolCallId, reason })),
    });
  }
  // what the client already holds, and where the continuation starts: read before deciding
  const history = await service.stores.eventLog.read(view.runId);
  // judged once, by the answer rules: not again while the run stands at the version judged
  const result = await service.commands.decide({ runId: view.runId }, decisions as never, {
    prejudged: { version: record.version, decisionIds: accepted },
  });
  if (result.receipts.every((receipt) => receipt.status === 'rejected')) {
    const why = result.receipts
      .map((receipt) => (receipt.status === 'rejected' ? receipt.message : ''))
      .join('; ');
    throw new AwakenError('decision_rejected', `no decision was applied: ${why}`);
  }
  return encodeUiMessageStream(
    service.follow(view.runId, { afterSeq: history.at(-1)?.seq ?? 0, signal: c.req.raw.signal }),
    { messageId: view.runId, history },
  );
}
