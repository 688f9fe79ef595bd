import type { MessageRecord, RunRecord } from '@awaken/contract';
import type { A2aArtifact, A2aMessage, A2aTask, A2aTaskStatus } from '../wire/a2a-types';
import { answerArtifact, toolResultArtifact } from './artifacts';
import { inputRequiredMessage } from './input-required-message';
import { openTicketsOf } from '../answers/open-tickets';
import { taskStateOf } from './task-state';

type RunView = Pick<
  RunRecord,
  'runId' | 'threadId' | 'agentId' | 'status' | 'termination' | 'state' | 'updatedAt'
>;

/** The status of a stored run; a waiting run's message asks for every open ticket. */
export function taskStatusOf(record: RunView): A2aTaskStatus {
  const ids = { taskId: record.runId, contextId: record.threadId };
  const state = taskStateOf(record);
  const timestamp = new Date(record.updatedAt).toISOString();
  const messageId = `${record.runId}-status-v${(record as { version?: number }).version ?? 0}`;
  if (state === 'TASK_STATE_INPUT_REQUIRED') {
    const message = inputRequiredMessage(openTicketsOf(record), { messageId, ...ids });
    return { state, message, timestamp };
  }
  if (record.termination?.type === 'error') {
    const message: A2aMessage = {
      messageId,
      ...ids,
      role: 'ROLE_AGENT',
      parts: [{ text: record.termination.message }],
    };
    return { state, message, timestamp };
  }
  return { state, timestamp };
}

/** The visible messages of a run as A2A history: user text and the agent's non-empty text. */
export function historyOf(record: Pick<RunRecord, 'runId' | 'threadId'>, messages: readonly MessageRecord[]) {
  const history: A2aMessage[] = [];
  for (const entry of messages) {
    if (entry.runId !== record.runId || entry.visibility !== 'external') continue;
    const ids = {
      messageId: `${record.runId}-m${entry.seq}`,
      taskId: record.runId,
      contextId: record.threadId,
    };
    const { message } = entry;
    if (message.role === 'user')
      history.push({ ...ids, role: 'ROLE_USER', parts: [{ text: message.content }] });
    if (message.role === 'assistant' && message.text)
      history.push({ ...ids, role: 'ROLE_AGENT', parts: [{ text: message.text }] });
  }
  return history;
}

/** The artifacts of a stored run: its text answer, then each tool call's result, from its messages. */
export function artifactsOf(
  record: Pick<RunRecord, 'runId'>,
  messages: readonly MessageRecord[],
): A2aArtifact[] {
  let text = '';
  const tools: A2aArtifact[] = [];
  for (const entry of messages) {
    if (entry.runId !== record.runId) continue;
    const { message } = entry;
    if (message.role === 'assistant') text += message.text;
    if (message.role === 'tool')
      tools.push(
        toolResultArtifact({
          toolCallId: message.toolCallId,
          toolName: message.toolName,
          outcome: message.outcome,
          content: message.content,
        }),
      );
  }
  return [...(text ? [answerArtifact(text)] : []), ...tools];
}

/**
 * A stored run as an A2A task: id = run id, contextId = thread id, the status of the run (with the
 * open tickets while it waits), its artifacts and — up to `historyLength` messages, all when
 * undefined, none when 0 — its history. Built from the stores alone, so any process answers it.
 */
export function taskOfRun(
  record: RunView,
  messages: readonly MessageRecord[],
  options: { historyLength?: number } = {},
): A2aTask {
  const artifacts = artifactsOf(record, messages);
  const history = historyOf(record, messages);
  const length = options.historyLength;
  const kept = length === undefined ? history : length === 0 ? [] : history.slice(-length);
  return {
    id: record.runId,
    contextId: record.threadId,
    status: taskStatusOf(record),
    ...(artifacts.length > 0 ? { artifacts } : {}),
    ...(kept.length > 0 ? { history: kept } : {}),
    metadata: { agentId: record.agentId },
  };
}
