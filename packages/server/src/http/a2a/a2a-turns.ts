import { AwakenError, type RunRecord, decisionViewOf } from '@awaken/contract';
import {
  A2aError,
  type A2aMessage,
  type A2aTask,
  type SendParams,
  TaskProjection,
  decideAnswers,
  readAnswers,
  taskStatusOf,
} from '@awaken/protocol-a2a';
import type { Context } from 'hono';
import type { SubmittedRun } from '../../types';
import type { HttpEnv } from '../http-types';
import { callerOf, runContextOf } from '../internal/run-context';
import { A2A_MESSAGE_KEY, checkSameMessage, messageDigest, messageTaskId } from './a2a-message-key';
import { isTerminal, loadRun } from './a2a-tasks';

/** Events read from the log at a time. */
const PAGE = 256;

/**
 * What a send or a subscription streams: the task as it stands (the first event), the fold that
 * turns the run's next events into updates, and where those events start in the run's event log
 * (read up to the activation's `run_finish`) — none when the task is interrupted and nothing more
 * comes now.
 */
export interface TaskFlow {
  runId: string;
  snapshot: A2aTask;
  projection: TaskProjection;
  afterSeq?: number;
}

/** Folds a run's event log, from its start, into a projection; returns the last seq read. */
async function foldLog(c: Context<HttpEnv>, runId: string, projection: TaskProjection): Promise<number> {
  for (;;) {
    const page = await c.var.service.stores.eventLog.read(runId, { afterSeq: projection.seq, limit: PAGE });
    for (const event of page) projection.apply(event);
    if (page.length < PAGE) return projection.seq;
  }
}

/** The text a new task starts with: its text parts, and its data parts as JSON. */
function inputOf(message: A2aMessage): string {
  const texts = message.parts.map((part, index) => {
    if ('text' in part) return part.text;
    if ('data' in part) return JSON.stringify(part.data);
    throw new A2aError(
      'content_type_not_supported',
      `params.message.parts.${index}: file parts are not supported; send text or data parts`,
      { field: `params.message.parts.${index}` },
    );
  });
  const input = texts.join('\n');
  if (input.trim() === '')
    throw new A2aError('invalid_params', 'invalid params: params.message.parts: the message has no text', {
      field: 'params.message.parts',
    });
  return input;
}

/** A run-level refusal as the A2A error a client can act on. */
export function a2aErrorOf(error: unknown): unknown {
  if (error instanceof A2aError) return error;
  if (AwakenError.hasCode(error, 'not_found'))
    return new A2aError('task_not_found', (error as Error).message);
  if (AwakenError.hasCode(error, 'validation_failed') || AwakenError.hasCode(error, 'invalid_config'))
    return new A2aError('invalid_params', `invalid params: ${(error as Error).message}`);
  if (AwakenError.hasCode(error, 'conflict'))
    return new A2aError('unsupported_operation', (error as Error).message);
  return error;
}

/**
 * A message without `taskId`: a new run of the agent on the context's thread (a new one when none),
 * under the task id its context and `messageId` give (`messageTaskId`). The same message again — a
 * client retrying after a lost answer, on this process or another sharing the stores, even at the
 * same moment — answers with the task the first one created, as it stands (followed while it works),
 * never a second run; a `messageId` reused for another message is `-32602` (`checkSameMessage`).
 */
export async function startTask(c: Context<HttpEnv>, agentId: string, params: SendParams): Promise<TaskFlow> {
  const { message } = params;
  const input = inputOf(message);
  const { service } = c.var;
  const runId = messageTaskId(message.contextId, message.messageId);
  const sent = { messageId: message.messageId, agentId, digest: messageDigest(agentId, input) };
  const retried = async (record: RunRecord) => {
    checkSameMessage(record, sent);
    Object.assign(c.var.ids, { threadId: record.threadId, runId: record.runId });
    return taskAsItStands(c, record, message);
  };
  let run: SubmittedRun;
  try {
    run = await service.submit({
      agentId,
      ...(message.contextId ? { threadId: message.contextId } : {}),
      runId,
      input,
      mode: 'foreground',
      ifBusy: 'queue',
      origin: 'a2a',
      context: runContextOf(c, {
        ...(params.metadata ? { a2a: params.metadata as never } : {}),
        [A2A_MESSAGE_KEY]: { messageId: sent.messageId, digest: sent.digest },
      }),
    });
  } catch (error) {
    // the task exists: the same message created it (before, or meanwhile on another process — the
    // store took one run under the id), and this one answers with it
    const raced = AwakenError.hasCode(error, 'conflict')
      ? await service.stores.threadRuns.getRun(runId)
      : null;
    if (raced) return retried(raced);
    throw error;
  }
  Object.assign(c.var.ids, { threadId: run.threadId, runId: run.runId, dispatchId: run.dispatchId });
  const ids = { taskId: run.runId, contextId: run.threadId };
  const projection = new TaskProjection(ids);
  const snapshot: A2aTask = {
    id: run.runId,
    contextId: run.threadId,
    status: { state: 'TASK_STATE_SUBMITTED', timestamp: new Date().toISOString() },
    history: [{ ...message, ...ids }],
    metadata: { agentId },
  };
  return { runId: run.runId, snapshot, projection, afterSeq: 0 };
}

/**
 * A message on an existing task: a context that is not the task's is `-32602`; a waiting task takes
 * the answers of the message's data parts (see `readAnswers`, `decideAnswers`) and continues — the
 * same task, streamed from the task as it stands. A message whose answers the task already has (the
 * same message sent again: the decision ids are the same) applies nothing and answers with the task
 * as it stands, whatever its state; any other message to a finished task, or to one that is not
 * waiting, is `-32004`.
 */
export async function continueTask(
  c: Context<HttpEnv>,
  params: SendParams,
  agentId?: string,
): Promise<TaskFlow> {
  const { service } = c.var;
  const { message } = params;
  const taskId = message.taskId as string;
  const record = await loadRun(service, taskId, agentId);
  Object.assign(c.var.ids, { threadId: record.threadId, runId: record.runId });
  if (message.contextId !== undefined && message.contextId !== record.threadId)
    throw new A2aError(
      'invalid_params',
      `invalid params: params.message.contextId: task ${taskId} belongs to context ${record.threadId}`,
      { field: 'params.message.contextId' },
    );
  // judged at this moment (an expired ticket is refused) and as the caller (four-eyes)
  const judge = () =>
    decideAnswers({
      answers: readAnswers(message),
      run: decisionViewOf(record, Date.now()),
      context: { caller: callerOf(c) },
      decidedBy: c.var.caller.subject,
    });
  if (record.status !== 'waiting') {
    // a message of answers the task already applied (a retry after a lost answer): the task as it
    // stands, followed while it works; anything else is refused below
    if (answersApplied(judge)) return taskAsItStands(c, record, message);
    if (isTerminal(record))
      throw new A2aError(
        'unsupported_operation',
        `task ${taskId} is in a terminal state and cannot be modified: send a new message on context ${record.threadId}`,
      );
    throw new A2aError(
      'unsupported_operation',
      `task ${taskId} is working and takes no message now; it takes answers once it is input-required`,
    );
  }
  const decisions = judge();
  // a message of answers the run already applied, while it waits on others: the task as it stands
  if (decisions.length === 0) return taskAsItStands(c, record, message);
  const ids = { taskId, contextId: record.threadId };
  const projection = new TaskProjection(ids);
  // what came before: folded for the snapshot, never sent again
  const afterSeq = await foldLog(c, taskId, projection);
  // judged once, by the answer rules: not again while the run stands at the version judged
  const prejudged = {
    version: record.version,
    decisionIds: new Set(decisions.map((decision) => decision.decisionId)),
  };
  const result = await service.commands.decide({ runId: taskId }, decisions, { prejudged });
  const refused = result.receipts.filter((receipt) => receipt.status === 'rejected');
  if (refused.length > 0 && refused.length === result.receipts.length)
    throw new A2aError(
      'invalid_params',
      `invalid params: params.message.parts: no answer was applied: ${refused.map((receipt) => ('message' in receipt ? receipt.message : '')).join('; ')}`,
      { field: 'params.message.parts' },
    );
  const snapshot: A2aTask = {
    id: taskId,
    contextId: record.threadId,
    status: taskStatusOf(record),
    ...(projection.artifacts().length > 0 ? { artifacts: projection.artifacts() } : {}),
    history: [{ ...message, ...ids }],
    metadata: { agentId: record.agentId },
  };
  return { runId: taskId, snapshot, projection, afterSeq };
}

/** True when every answer of the message is one the run already has (and there is at least one). */
function answersApplied(judge: () => unknown[]): boolean {
  try {
    return judge().length === 0;
  } catch {
    return false;
  }
}

/**
 * The task as its event log tells it so far (status, the answer so far, the tool results, the
 * tickets still open), then — while it is submitted or working — its events after that point until
 * it is interrupted or terminal; an interrupted or terminal task answers its snapshot only.
 * `message`, when given, is the history the snapshot shows (the message being answered).
 */
async function taskAsItStands(
  c: Context<HttpEnv>,
  record: RunRecord,
  message?: A2aMessage,
): Promise<TaskFlow> {
  const taskId = record.runId;
  const ids = { taskId, contextId: record.threadId };
  const projection = new TaskProjection(ids);
  const afterSeq = await foldLog(c, taskId, projection);
  const snapshot: A2aTask = {
    id: taskId,
    contextId: record.threadId,
    status: projection.status,
    ...(projection.artifacts().length > 0 ? { artifacts: projection.artifacts() } : {}),
    ...(message ? { history: [{ ...message, ...ids }] } : {}),
    metadata: { agentId: record.agentId },
  };
  if (projection.status.state !== 'TASK_STATE_SUBMITTED' && projection.status.state !== 'TASK_STATE_WORKING')
    return { runId: taskId, snapshot, projection };
  return { runId: taskId, snapshot, projection, afterSeq };
}

/**
 * `SubscribeToTask`: the task as its event log tells it so far, then its events after that point
 * until it is interrupted or terminal — from any process sharing the stores, nothing lost or
 * repeated. An interrupted task answers its snapshot only; a finished one is `-32004`.
 */
export async function subscribeTask(
  c: Context<HttpEnv>,
  taskId: string,
  agentId?: string,
): Promise<TaskFlow> {
  const record = await loadRun(c.var.service, taskId, agentId);
  Object.assign(c.var.ids, { threadId: record.threadId, runId: record.runId });
  if (isTerminal(record))
    throw new A2aError(
      'unsupported_operation',
      `task ${taskId} is in a terminal state: nothing to subscribe to`,
    );
  return taskAsItStands(c, record);
}
