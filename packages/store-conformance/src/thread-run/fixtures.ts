import type { Checkpoint, NewMessage, RunRecord, RunStatus, ThreadRunStore } from '@awaken/contract';
import { uniqueId } from '../internal/ids';
import { runRecord } from '../internal/run-record';

/** A new run (`created`, see {@link runRecord}) in `threadId`, under a unique id. */
export function newRunRecord(threadId: string, overrides: Partial<RunRecord> = {}): RunRecord {
  return runRecord(uniqueId('run'), threadId, overrides);
}

export function userMessage(content: string, overrides: Partial<NewMessage> = {}): NewMessage {
  return { visibility: 'external', message: { role: 'user', content }, ...overrides };
}

export function assistantMessage(text: string, runId: string, step: number): NewMessage {
  return { runId, step, visibility: 'external', message: { role: 'assistant', text, toolCalls: [] } };
}

/** Creates a thread and a run in it; returns both ids and the stored run. */
export async function threadWithRun(store: ThreadRunStore): Promise<{ threadId: string; run: RunRecord }> {
  const thread = await store.createThread({ id: uniqueId('thread') });
  const run = await store.createRun(newRunRecord(thread.id));
  return { threadId: thread.id, run };
}

/** The checkpoint that moves `run` one version on to `status`, appending `messages`. */
export async function nextCheckpoint(
  store: ThreadRunStore,
  run: RunRecord,
  status: RunStatus,
  messages: NewMessage[] = [],
): Promise<Checkpoint> {
  return {
    trigger: status === 'done' ? 'run_finished' : 'tool_results_committed',
    threadId: run.threadId,
    expectedMessageCount: await store.messageCount(run.threadId),
    messages,
    run: { ...run, status, version: run.version + 1, steps: run.steps + 1 },
  };
}
