import { AwakenError, type RunRecord } from '@awaken/contract';
import {
  A2aError,
  type A2aTask,
  type ListTasksParams,
  TERMINAL_TASK_STATES,
  taskOfRun,
  taskStateOf,
} from '@awaken/protocol-a2a';
import type { MailboxService } from '../../types';

/** Threads (and runs per thread) `ListTasks` looks at. */
const SCAN_LIMIT = 1000;

/**
 * The stored run of a task id: `-32001 TaskNotFound` when this tenant's stores have none, or when
 * it is another agent's task and `agentId` (an agent's own endpoint) is given.
 */
export async function loadRun(service: MailboxService, taskId: string, agentId?: string): Promise<RunRecord> {
  const record = await service.stores.threadRuns.getRun(taskId);
  if (!record || (agentId !== undefined && record.agentId !== agentId))
    throw new A2aError('task_not_found', `task ${taskId} not found`, { taskId });
  return record;
}

/** A stored run as a task, its history and artifacts read from its thread's messages. */
export async function taskOf(
  service: MailboxService,
  record: RunRecord,
  historyLength?: number,
): Promise<A2aTask> {
  const from = record.inputRange?.from ?? 1;
  const messages = await service.stores.threadRuns.readMessages(record.threadId, { from });
  return taskOfRun(record, messages, historyLength === undefined ? {} : { historyLength });
}

/** `CancelTask`: a finished task is `-32002 TaskNotCancelable`; otherwise the run is cancelled. */
export async function cancelTask(
  service: MailboxService,
  taskId: string,
  agentId?: string,
): Promise<A2aTask> {
  const record = await loadRun(service, taskId, agentId);
  if (record.status === 'done')
    throw new A2aError(
      'task_not_cancelable',
      `task ${taskId} is ${taskStateOf(record)} and cannot be canceled`,
      {
        taskId,
      },
    );
  const cancelled = await service.commands.cancelRun(taskId, 'canceled over A2A');
  return taskOf(service, cancelled, 0);
}

async function threadIdsOf(service: MailboxService, contextId: string | undefined): Promise<string[]> {
  if (contextId !== undefined) return [contextId];
  const ids: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await service.stores.threadRuns.listThreads({ limit: 200, ...(cursor ? { cursor } : {}) });
    ids.push(...page.items.map((thread) => thread.id));
    cursor = page.nextCursor;
  } while (cursor && ids.length < SCAN_LIMIT);
  return ids.slice(0, SCAN_LIMIT);
}

async function runsOf(service: MailboxService, threadId: string): Promise<RunRecord[]> {
  const runs: RunRecord[] = [];
  let cursor: string | undefined;
  do {
    const page = await service.stores.threadRuns
      .listRuns(threadId, { limit: 200, ...(cursor ? { cursor } : {}) })
      .catch((error: unknown) => {
        // an unknown context has no tasks; any other failure is the store's, and is not hidden
        if (AwakenError.hasCode(error, 'not_found'))
          return { items: [] as RunRecord[], nextCursor: undefined };
        throw error;
      });
    runs.push(...page.items);
    cursor = page.nextCursor;
  } while (cursor && runs.length < SCAN_LIMIT);
  return runs;
}

/**
 * `ListTasks`: the tenant's tasks (of one context when `contextId` is given; of one agent on an
 * agent's endpoint), newest first, filtered by `status`, `pageSize` per page (default 50) with an
 * opaque `pageToken`. Without `contextId` it looks at the newest 1000 threads.
 */
export async function listTasks(
  service: MailboxService,
  params: ListTasksParams,
  agentId: string | undefined,
): Promise<{ tasks: A2aTask[]; nextPageToken: string; pageSize: number; totalSize: number }> {
  const offset = params.pageToken ? Number(params.pageToken) : 0;
  if (!Number.isSafeInteger(offset) || offset < 0)
    throw new A2aError(
      'invalid_params',
      'invalid params: params.pageToken: not a token this listing returned',
      {
        field: 'params.pageToken',
      },
    );
  // UNSPECIFIED (what a client sends for no filter) filters nothing
  const status = params.status === 'TASK_STATE_UNSPECIFIED' ? undefined : params.status;
  const threads = await threadIdsOf(service, params.contextId);
  const runs = (await Promise.all(threads.map((threadId) => runsOf(service, threadId)))).flat();
  const matching = runs
    .filter((run) => agentId === undefined || run.agentId === agentId)
    .filter((run) => status === undefined || taskStateOf(run) === status)
    .sort((a, b) => b.updatedAt - a.updatedAt || (a.runId < b.runId ? -1 : 1));
  const pageSize = params.pageSize ?? 50;
  const page = matching.slice(offset, offset + pageSize);
  const tasks = await Promise.all(page.map((run) => taskOf(service, run, params.historyLength ?? 0)));
  const next = offset + pageSize < matching.length ? String(offset + pageSize) : '';
  return { tasks, nextPageToken: next, pageSize, totalSize: matching.length };
}

/** True when a task takes no more messages. */
export function isTerminal(record: RunRecord): boolean {
  return TERMINAL_TASK_STATES.has(taskStateOf(record));
}
