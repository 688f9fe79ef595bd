import { type AgUiEvent, encodeAgUiRun } from '@awaken/protocol-ag-ui';
import type { Context } from 'hono';
import { replayRun } from '../ai-sdk/ai-sdk-stream';
import type { HttpEnv } from '../http-types';
import { activeRunOrNone } from '../internal/active-run';
import { settleRun, threadMessages } from './ag-ui-ending';
import { checkRunAgent } from './ag-ui-turns';

async function* nothing(): AsyncGenerator<AgUiEvent> {}

/**
 * `connect`: the thread's executing or waiting run replayed from the durable event log — after a
 * `MESSAGES_SNAPSHOT` of the thread before it — and, while it works, followed live to its next
 * stop, on any process. A thread with no such run (or none at all) answers an empty stream.
 */
export async function agUiConnect(
  c: Context<HttpEnv>,
  threadId: string,
  agentId: string | undefined,
): Promise<AsyncIterable<AgUiEvent>> {
  const { service } = c.var;
  // an unknown thread has nothing to reconnect to either (a fresh page may connect first)
  const view = await activeRunOrNone(c, threadId);
  if (!view) return nothing();
  checkRunAgent(view.record, agentId);
  const { runId } = view;
  c.var.ids.runId = runId;
  const signal = c.req.raw.signal;
  const before = await threadMessages(
    service,
    threadId,
    (record) => record.runId === runId && record.message.role !== 'user',
  );
  return encodeAgUiRun(replayRun(service, runId, signal), {
    threadId,
    runId,
    preamble: [{ type: 'MESSAGES_SNAPSHOT', messages: before }],
    settle: () => settleRun(service, runId),
    signal,
  });
}
