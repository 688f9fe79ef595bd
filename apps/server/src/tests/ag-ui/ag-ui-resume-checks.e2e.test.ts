import { randomUUID } from 'node:crypto';
import { buildResumeArray } from '@ag-ui/client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { checkAgUiBody, createAgent, lastRun, wireProblems } from '../../../test-support/ag-ui-client';
import { type AppProcess, api, startAppProcess } from '../../../test-support/app-process';

let app: AppProcess;
beforeAll(async () => {
  app = await startAppProcess({ AWAKEN_DEMO_DELAY_MS: '5' });
});
afterEach(async () => {
  expect(await wireProblems()).toEqual([]);
});
afterAll(async () => {
  await app?.stop();
});

async function toolResults(threadId: string): Promise<Array<Record<string, any>>> {
  const { body } = await api(app.url, `/v1/threads/${threadId}/messages?limit=1000`);
  return body.items
    .map((item: any) => item.message ?? item)
    .filter((message: any) => message.role === 'tool');
}

/** A raw `RunAgentInput` POST (what the client refuses to send), its events checked on the wire. */
async function post(body: Record<string, unknown>) {
  const response = await fetch(`${app.url}/v1/ag-ui/agents/demo/run`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
    body: JSON.stringify({ runId: randomUUID(), tools: [], context: [], ...body }),
  });
  const text = await response.text();
  if (!response.headers.get('content-type')?.startsWith('text/event-stream')) {
    return { status: response.status, events: [], body: JSON.parse(text) };
  }
  return { status: response.status, events: checkAgUiBody('raw', text), body: undefined };
}

/** A thread waiting on one delete_file approval. */
async function waiting(path = '/tmp/x.txt') {
  const { agent, events } = createAgent({ url: app.url });
  agent.addMessage({ id: `u-${randomUUID()}`, role: 'user', content: `delete ${path}` });
  await agent.runAgent();
  const [interrupt] = agent.pendingInterrupts;
  return { agent, events, interrupt: interrupt! };
}

async function runStatus(threadId: string) {
  const { body } = await api(app.url, `/v1/threads/${threadId}/runs`);
  return body.items[0]?.status;
}

describe('AG-UI resume checks (the stored run decides, never the client)', () => {
  it('replaying the same resume is safe: applied once, the replay ends success with nothing re-run', async () => {
    const { agent, events, interrupt } = await waiting('/tmp/replay.txt');
    const resume = buildResumeArray(agent.pendingInterrupts, {
      [interrupt.id]: { status: 'resolved', payload: { approved: true } },
    });
    await agent.runAgent({ resume });
    await agent.runAgent({ resume });
    const replay = lastRun(events);
    expect(replay.map((event) => event.type)).toEqual(['RUN_STARTED', 'RUN_FINISHED']);
    expect(replay.at(-1)).toMatchObject({ outcome: { type: 'success' } });
    expect(await toolResults(agent.threadId)).toHaveLength(1);
  });

  it('input without resume while interrupts are pending is a RUN_ERROR, and the run still waits', async () => {
    const { agent, interrupt } = await waiting();
    const { events } = await post({
      threadId: agent.threadId,
      messages: [...agent.messages, { id: 'u2', role: 'user', content: 'hello?' }],
    });
    expect(events.at(-1)).toMatchObject({ type: 'RUN_ERROR', code: 'interrupt_pending' });
    expect(events.at(-1)?.message).toContain(interrupt.id);
    expect(await runStatus(agent.threadId)).toBe('waiting');
  });

  it('an unknown interrupt id is a RUN_ERROR and nothing of the request is applied', async () => {
    const { agent, interrupt } = await waiting();
    const { events } = await post({
      threadId: agent.threadId,
      messages: agent.messages,
      resume: [
        { interruptId: interrupt.id, status: 'resolved', payload: { approved: true } },
        { interruptId: 'no-such-interrupt', status: 'resolved', payload: { approved: true } },
      ],
    });
    expect(events.at(-1)).toMatchObject({ type: 'RUN_ERROR', code: 'unknown_interrupt' });
    expect(await runStatus(agent.threadId)).toBe('waiting');
    expect(await toolResults(agent.threadId)).toEqual([]);
  });

  it('a payload that fails the responseSchema is a RUN_ERROR (invalid_payload)', async () => {
    const { agent, interrupt } = await waiting();
    for (const payload of [{ approve: 'yes' }, { approved: 'yes' }, { approved: true, editedArgs: 'x' }]) {
      const { events } = await post({
        threadId: agent.threadId,
        messages: agent.messages,
        resume: [{ interruptId: interrupt.id, status: 'resolved', payload }],
      });
      expect(events.at(-1)).toMatchObject({ type: 'RUN_ERROR', code: 'invalid_payload' });
    }
    expect(await runStatus(agent.threadId)).toBe('waiting');
  });

  it('bad input is a 422 JSON error naming the field, before any stream', async () => {
    const missing = await post({ messages: [] });
    expect(missing.status).toBe(422);
    expect(JSON.stringify(missing.body)).toContain('threadId');
    const noUser = await post({ threadId: `t-${randomUUID()}`, messages: [] });
    expect(noUser.status).toBe(422);
    expect(noUser.body.error.message).toContain('messages');
  });

  it('CopilotKit on resume: the pinned runId and its synthetic tool message are accepted; the server result wins', async () => {
    const { agent, events, interrupt } = await waiting('/tmp/pinned.txt');
    const runId = (lastRun(events)[0] as any).runId as string;
    const synthetic = {
      id: `t-${randomUUID()}`,
      role: 'tool' as const,
      toolCallId: interrupt.toolCallId!,
      content: JSON.stringify({ approved: true }),
    };
    agent.addMessage(synthetic);
    await agent.runAgent({
      runId,
      resume: buildResumeArray(agent.pendingInterrupts, {
        [interrupt.id]: { status: 'resolved', payload: { approved: true } },
      }),
    });
    expect(lastRun(events).find((event) => event.type === 'TOOL_CALL_RESULT')).toMatchObject({
      content: JSON.stringify({ deleted: '/tmp/pinned.txt' }),
    });
    expect(await toolResults(agent.threadId)).toMatchObject([
      { outcome: 'succeeded', content: { deleted: '/tmp/pinned.txt' } },
    ]);
  });

  it('the legacy channel: forwardedProps.command.resume answers, and on_interrupt precedes the 1.0 outcome on request', async () => {
    const threadId = `t-${randomUUID()}`;
    const first = await post({
      threadId,
      messages: [{ id: 'u1', role: 'user', content: 'delete /tmp/legacy.txt' }],
      forwardedProps: { awaken: { legacyInterruptEvent: true } },
    });
    const types = first.events.map((event) => event.type);
    expect(types.slice(-2)).toEqual(['CUSTOM', 'RUN_FINISHED']);
    expect(first.events.at(-2)).toMatchObject({ name: 'on_interrupt' });
    const second = await post({
      threadId,
      messages: [],
      forwardedProps: { command: { resume: { approved: true } } },
    });
    expect(second.events.at(-1)).toMatchObject({ type: 'RUN_FINISHED', outcome: { type: 'success' } });
    expect(await toolResults(threadId)).toMatchObject([{ outcome: 'succeeded' }]);
  });
});
