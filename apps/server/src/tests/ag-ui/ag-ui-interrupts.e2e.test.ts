import { randomUUID } from 'node:crypto';
import { buildResumeArray } from '@ag-ui/client';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { assistantText, createAgent, lastRun, wireProblems } from '../../../test-support/ag-ui-client';
import { type AppProcess, api, startAppProcess } from '../../../test-support/app-process';

let app: AppProcess;
let warn: ReturnType<typeof vi.spyOn>;
beforeAll(async () => {
  app = await startAppProcess({ AWAKEN_DEMO_DELAY_MS: '5' });
});
beforeEach(() => {
  warn = vi.spyOn(console, 'warn');
});
// every stream was valid AG-UI 1.0 on the wire, and the client printed no protocol warning
afterEach(async () => {
  expect(await wireProblems()).toEqual([]);
  expect(warn.mock.calls).toEqual([]);
  warn.mockRestore();
});
afterAll(async () => {
  await app?.stop();
});

/** The tool messages the server's own thread holds: what really ran, with what. */
async function toolResults(threadId: string): Promise<Array<Record<string, any>>> {
  const { body } = await api(app.url, `/v1/threads/${threadId}/messages?limit=1000`);
  return body.items
    .map((item: any) => item.message ?? item)
    .filter((message: any) => message.role === 'tool');
}

function userMessage(content: string) {
  return { id: `u-${randomUUID()}`, role: 'user' as const, content };
}

function types(events: ReadonlyArray<{ type: string }>): string[] {
  return events.map((event) => event.type);
}

describe('@ag-ui/client HttpAgent against the reference server: interrupts', () => {
  it('approve: the run ends with an interrupt per ticket, the resume runs the tool once and streams its result', async () => {
    const { agent, events } = createAgent({ url: app.url });
    agent.addMessage(userMessage('delete /tmp/report.txt'));
    await agent.runAgent();
    const first = lastRun(events);
    expect(types(first).slice(-3)).toEqual(['STATE_SNAPSHOT', 'MESSAGES_SNAPSHOT', 'RUN_FINISHED']);
    expect(agent.pendingInterrupts).toHaveLength(1);
    const [interrupt] = agent.pendingInterrupts;
    expect(interrupt).toMatchObject({ reason: 'tool_call', toolCallId: expect.any(String) });
    expect(interrupt?.responseSchema).toMatchObject({ properties: { approved: { type: 'boolean' } } });
    const call = first.find((event: any) => event.type === 'TOOL_CALL_START') as any;
    expect(call.toolCallId).toBe(interrupt?.toolCallId);
    // the snapshot holds the call under the id the stream announced
    const assistant = agent.messages.find((message) => message.role === 'assistant') as any;
    expect(assistant.id).toBe(call.parentMessageId);
    expect(assistant.toolCalls).toMatchObject([{ id: call.toolCallId, function: { name: 'delete_file' } }]);

    await agent.runAgent({
      resume: buildResumeArray(agent.pendingInterrupts, {
        [interrupt!.id]: { status: 'resolved', payload: { approved: true } },
      }),
    });
    const second = lastRun(events);
    expect(types(second)).not.toContain('TOOL_CALL_START');
    expect(second.find((event) => event.type === 'TOOL_CALL_RESULT')).toMatchObject({
      toolCallId: call.toolCallId,
      content: JSON.stringify({ deleted: '/tmp/report.txt' }),
    });
    expect(second.at(-1)).toMatchObject({ type: 'RUN_FINISHED', outcome: { type: 'success' } });
    expect(agent.pendingInterrupts).toEqual([]);
    expect(assistantText(agent.messages)).toBe(
      'I will delete /tmp/report.txt. Done: I deleted /tmp/report.txt.',
    );
    const ids = agent.messages.map((message) => message.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(await toolResults(agent.threadId)).toMatchObject([
      { toolCallId: call.toolCallId, outcome: 'succeeded' },
    ]);
  });

  it('deny (approved: false, and status cancelled): the tool never runs and the model reads why', async () => {
    for (const answer of [
      { status: 'resolved' as const, payload: { approved: false, reason: 'keep it' } },
      { status: 'cancelled' as const },
    ]) {
      const { agent } = createAgent({ url: app.url });
      agent.addMessage(userMessage('delete /tmp/keep.txt'));
      await agent.runAgent();
      const [interrupt] = agent.pendingInterrupts;
      await agent.runAgent({
        resume: buildResumeArray(agent.pendingInterrupts, { [interrupt!.id]: answer }),
      });
      expect(assistantText(agent.messages)).toMatch(/I did not run delete_file/);
      expect(await toolResults(agent.threadId)).toMatchObject([{ outcome: 'cancelled' }]);
    }
  });

  it('approve with edited arguments: editedArgs replaces the arguments whole', async () => {
    const { agent } = createAgent({ url: app.url });
    agent.addMessage(userMessage('delete /tmp/wrong.txt'));
    await agent.runAgent();
    const [interrupt] = agent.pendingInterrupts;
    expect(interrupt?.responseSchema).toMatchObject({ properties: { editedArgs: { type: 'object' } } });
    await agent.runAgent({
      resume: buildResumeArray(agent.pendingInterrupts, {
        [interrupt!.id]: {
          status: 'resolved',
          payload: { approved: true, editedArgs: { path: '/tmp/right.txt' } },
        },
      }),
    });
    expect(assistantText(agent.messages)).toMatch(/Done: I deleted \/tmp\/right\.txt\./);
    // the model's history says a human changed the arguments, and to what
    expect(await toolResults(agent.threadId)).toMatchObject([
      {
        outcome: 'succeeded',
        content: {
          argumentsEditedByHuman: { from: { path: '/tmp/wrong.txt' }, to: { path: '/tmp/right.txt' } },
          result: { deleted: '/tmp/right.txt' },
        },
      },
    ]);
  });

  it('two parallel approvals answered in one resume', async () => {
    const { agent } = createAgent({ url: app.url });
    agent.addMessage(userMessage('delete /tmp/a.txt and /tmp/b.txt'));
    await agent.runAgent();
    expect(agent.pendingInterrupts).toHaveLength(2);
    const [a, b] = agent.pendingInterrupts;
    await agent.runAgent({
      resume: buildResumeArray(agent.pendingInterrupts, {
        [a!.id]: { status: 'resolved', payload: { approved: true } },
        [b!.id]: { status: 'resolved', payload: { approved: false } },
      }),
    });
    expect(agent.pendingInterrupts).toEqual([]);
    const results = await toolResults(agent.threadId);
    expect(results.map((result) => result.outcome).sort()).toEqual(['cancelled', 'succeeded']);
  });

  it('two parallel approvals answered in two resumes: the first ends with an interrupt for the other', async () => {
    const { agent, events } = createAgent({ url: app.url });
    agent.addMessage(userMessage('delete /tmp/c.txt and /tmp/d.txt'));
    await agent.runAgent();
    const [c, d] = agent.pendingInterrupts;
    // the wire protocol asks every resume to cover all interrupts: the partial one goes raw
    const partial = await fetch(`${app.url}/v1/ag-ui/agents/demo/run`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify({
        threadId: agent.threadId,
        runId: randomUUID(),
        messages: agent.messages,
        tools: [],
        context: [],
        resume: [{ interruptId: c!.id, status: 'resolved', payload: { approved: true } }],
      }),
    });
    const text = await partial.text();
    const last = JSON.parse(text.trim().split('\n\n').at(-1)!.slice(6));
    expect(last).toMatchObject({
      type: 'RUN_FINISHED',
      outcome: { type: 'interrupt', interrupts: [{ id: d!.id }] },
    });
    expect(await toolResults(agent.threadId)).toMatchObject([{ outcome: 'succeeded' }]);

    agent.pendingInterrupts = [d!];
    await agent.runAgent({
      resume: buildResumeArray(agent.pendingInterrupts, {
        [d!.id]: { status: 'resolved', payload: { approved: true } },
      }),
    });
    expect(lastRun(events).at(-1)).toMatchObject({ type: 'RUN_FINISHED', outcome: { type: 'success' } });
    expect((await toolResults(agent.threadId)).map((result) => result.outcome)).toEqual([
      'succeeded',
      'succeeded',
    ]);
  });
});
