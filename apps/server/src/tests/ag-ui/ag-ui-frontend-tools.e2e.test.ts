import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { assistantText, createAgent, lastRun, wireProblems } from '../../../test-support/ag-ui-client';
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

const confirm = {
  name: 'confirm',
  description: 'Asks the user to confirm',
  parameters: { type: 'object', properties: { question: { type: 'string' } }, required: ['question'] },
};

describe('AG-UI frontend tools', () => {
  it('a call to a tool the client declared is streamed, never answered, ends success with pendingToolCallIds; the tool message is the answer', async () => {
    const { agent, events } = createAgent({ url: app.url });
    agent.addMessage({ id: 'u1', role: 'user', content: 'use the confirm tool with {"question":"ok?"}' });
    await agent.runAgent({ tools: [confirm] });
    const first = lastRun(events);
    const start = first.find((event) => event.type === 'TOOL_CALL_START') as any;
    expect(start).toMatchObject({ toolCallName: 'confirm' });
    expect(first.map((event) => event.type)).not.toContain('TOOL_CALL_RESULT');
    expect(first.at(-1)).toMatchObject({
      type: 'RUN_FINISHED',
      outcome: { type: 'success', pendingToolCallIds: [start.toolCallId] },
    });
    expect(agent.pendingInterrupts).toEqual([]);

    agent.addMessage({
      id: `tool-${randomUUID()}`,
      role: 'tool',
      toolCallId: start.toolCallId,
      content: '{"ok":true}',
    });
    await agent.runAgent({ tools: [confirm] });
    const second = lastRun(events);
    // the client holds its own result: it is not echoed back
    expect(second.map((event) => event.type)).not.toContain('TOOL_CALL_RESULT');
    expect(second.at(-1)).toMatchObject({ type: 'RUN_FINISHED', outcome: { type: 'success' } });
    expect(assistantText(agent.messages)).toBe('confirm answered {"ok":true}.');
    const { body } = await api(app.url, `/v1/threads/${agent.threadId}/messages?limit=100`);
    const tools = body.items
      .map((item: any) => item.message)
      .filter((message: any) => message.role === 'tool');
    expect(tools).toMatchObject([
      { toolCallId: start.toolCallId, outcome: 'succeeded', content: { ok: true } },
    ]);
  });

  it('a tool message that fails the stored call (a value its schema refuses) is a RUN_ERROR, the call still waits', async () => {
    const { agent, events } = createAgent({ url: app.url });
    agent.addMessage({ id: 'u1', role: 'user', content: 'pick a color' });
    await agent.runAgent();
    const start = lastRun(events).find((event) => event.type === 'TOOL_CALL_START') as any;
    expect(start).toMatchObject({ toolCallName: 'choose_color' });
    agent.addMessage({
      id: 'tool-1',
      role: 'tool',
      toolCallId: start.toolCallId,
      content: '{"colour":"red"}',
    });
    await agent.runAgent();
    expect(lastRun(events).at(-1)).toMatchObject({ type: 'RUN_ERROR', code: 'invalid_payload' });
    agent.messages = agent.messages.filter((message) => message.id !== 'tool-1');
    agent.addMessage({
      id: 'tool-2',
      role: 'tool',
      toolCallId: start.toolCallId,
      content: '{"color":"red"}',
    });
    await agent.runAgent();
    expect(assistantText(agent.messages)).toContain('You chose red.');
  });

  it("the agent's own client tool declared by the client (as CopilotKit sends every frontend tool on every run) is accepted: the call waits for the client", async () => {
    const chooseColor = {
      name: 'choose_color',
      description: 'Lets the user pick a color',
      parameters: {
        type: 'object',
        properties: { options: { type: 'array', items: { type: 'string' } } },
        required: ['options'],
      },
    };
    const { agent, events } = createAgent({ url: app.url });
    agent.addMessage({ id: 'u1', role: 'user', content: 'pick a color' });
    await agent.runAgent({ tools: [chooseColor] });
    const first = lastRun(events);
    const start = first.find((event) => event.type === 'TOOL_CALL_START') as any;
    expect(start).toMatchObject({ toolCallName: 'choose_color' });
    expect(first.map((event) => event.type)).not.toContain('TOOL_CALL_RESULT');
    expect(first.at(-1)).toMatchObject({
      type: 'RUN_FINISHED',
      outcome: { type: 'success', pendingToolCallIds: [start.toolCallId] },
    });
    expect(agent.pendingInterrupts).toEqual([]);

    agent.addMessage({
      id: `tool-${randomUUID()}`,
      role: 'tool',
      toolCallId: start.toolCallId,
      content: '{"color":"green"}',
    });
    await agent.runAgent({ tools: [chooseColor] });
    expect(lastRun(events).at(-1)).toMatchObject({ type: 'RUN_FINISHED', outcome: { type: 'success' } });
    expect(assistantText(agent.messages)).toBe('You chose green. Nice choice!');
  });

  it('a client tool shadowing a tool the server executes is refused before anything runs (422)', async () => {
    const { agent } = createAgent({ url: app.url });
    agent.addMessage({ id: 'u1', role: 'user', content: 'delete /tmp/shadowed.txt' });
    const shadow = {
      name: 'delete_file',
      description: 'Deletes in the browser',
      parameters: { type: 'object' },
    };
    await expect(agent.runAgent({ tools: [shadow] })).rejects.toThrow(
      /HTTP 422: .*tools\[0\] \\?"delete_file\\?" shadows a server-executed tool of agent \\?"demo\\?"/,
    );
    const { status } = await api(app.url, `/v1/threads/${agent.threadId}/runs`);
    expect(status).toBe(404);
  });
});
