import { randomUUID } from 'node:crypto';
import { type HttpAgent, type Message, buildResumeArray } from '@ag-ui/client';
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

/** The tool messages of the client's thread (what its next `runAgent` sends). */
function clientToolMessages(agent: HttpAgent) {
  return agent.messages.filter(
    (message): message is Extract<Message, { role: 'tool' }> => message.role === 'tool',
  );
}

/** The tool messages the server's own thread holds: what really ran, with what. */
async function serverToolMessages(threadId: string): Promise<Array<Record<string, any>>> {
  const { body } = await api(app.url, `/v1/threads/${threadId}/messages?limit=1000`);
  return body.items
    .map((item: any) => item.message ?? item)
    .filter((message: any) => message.role === 'tool');
}

/**
 * CopilotKit v2's resume (useInterrupt, CopilotKit#6999), with the real `HttpAgent`: a synthetic tool
 * message carrying the payload for the interrupted call, `resume[]`, and the interrupted run's own
 * `runId` pinned on the new request.
 */
async function resumeLikeCopilotKit(
  agent: HttpAgent,
  events: ReadonlyArray<{ type: string }>,
  payload: Record<string, unknown>,
) {
  const [interrupt] = agent.pendingInterrupts;
  const runId = (lastRun(events as never)[0] as unknown as { runId: string }).runId;
  const synthetic = {
    id: randomUUID(),
    role: 'tool' as const,
    toolCallId: interrupt!.toolCallId!,
    content: JSON.stringify(payload),
  };
  agent.addMessage(synthetic);
  await agent.runAgent({
    runId,
    resume: buildResumeArray(agent.pendingInterrupts, { [interrupt!.id]: { status: 'resolved', payload } }),
  });
  return { synthetic, toolCallId: interrupt!.toolCallId! };
}

describe("CopilotKit-style resume: the client's thread ends with one result per call, the server's", () => {
  for (const { name, payload, path, result } of [
    {
      name: 'approve',
      payload: { approved: true },
      path: '/tmp/ck-approve.txt',
      result: { outcome: 'succeeded', text: JSON.stringify({ deleted: '/tmp/ck-approve.txt' }) },
    },
    {
      name: 'deny',
      payload: { approved: false, reason: 'keep it' },
      path: '/tmp/ck-deny.txt',
      result: { outcome: 'cancelled', text: undefined },
    },
  ]) {
    it(`${name}: the closing MESSAGES_SNAPSHOT replaces the synthetic tool message; the next turn runs`, async () => {
      const { agent, events } = createAgent({ url: app.url });
      agent.addMessage({ id: `u-${randomUUID()}`, role: 'user', content: `delete ${path}` });
      await agent.runAgent();
      expect(agent.pendingInterrupts).toHaveLength(1);

      const { synthetic, toolCallId } = await resumeLikeCopilotKit(agent, events, payload);
      const resumed = lastRun(events);
      expect(resumed.at(-1)).toMatchObject({ type: 'RUN_FINISHED', outcome: { type: 'success' } });
      expect(resumed.map((event) => event.type).slice(-2)).toEqual(['MESSAGES_SNAPSHOT', 'RUN_FINISHED']);

      // exactly one tool message for the call: the server's, never the client's synthetic copy
      const servers = await serverToolMessages(agent.threadId);
      expect(servers).toMatchObject([{ toolCallId, outcome: result.outcome }]);
      const content = servers[0]?.content;
      const serverText = typeof content === 'string' ? content : JSON.stringify(content);
      const tools = clientToolMessages(agent);
      expect(tools.map((message) => message.toolCallId)).toEqual([toolCallId]);
      expect(tools[0]?.id).not.toBe(synthetic.id);
      expect(tools[0]?.content).not.toBe(synthetic.content);
      expect(tools[0]?.content).toBe(serverText);
      if (result.text) expect(serverText).toBe(result.text);
      // the thread keeps its order: user, the call, its one result, the answer
      expect(agent.messages.map((message) => message.role)).toEqual([
        'user',
        'assistant',
        'tool',
        'assistant',
      ]);
      const answer = assistantText(agent.messages);
      expect(answer).toMatch(name === 'approve' ? /Done: I deleted/ : /I did not run delete_file/);

      // the next turn sends that thread and runs
      agent.addMessage({ id: `u-${randomUUID()}`, role: 'user', content: 'weather in Oslo' });
      await agent.runAgent();
      expect(lastRun(events).at(-1)).toMatchObject({ type: 'RUN_FINISHED', outcome: { type: 'success' } });
      expect(assistantText(agent.messages)).toMatch(/ in Oslo, /);
      expect(clientToolMessages(agent).filter((message) => message.toolCallId === toolCallId)).toHaveLength(
        1,
      );
    });
  }

  it('the same resume posted again (a retry after a lost response) also ends with the server thread', async () => {
    const { agent, events } = createAgent({ url: app.url });
    agent.addMessage({ id: `u-${randomUUID()}`, role: 'user', content: 'delete /tmp/ck-retry.txt' });
    await agent.runAgent();
    const pending = agent.pendingInterrupts;
    const before = agent.messages;
    const { toolCallId } = await resumeLikeCopilotKit(agent, events, { approved: true });
    // the client never saw that answer: its thread and interrupts are as before, and it resumes again
    agent.messages = before;
    agent.pendingInterrupts = pending;
    await resumeLikeCopilotKit(agent, events, { approved: true });
    const replay = lastRun(events);
    expect(replay.map((event) => event.type)).toEqual(['RUN_STARTED', 'MESSAGES_SNAPSHOT', 'RUN_FINISHED']);
    expect(clientToolMessages(agent).map((message) => message.toolCallId)).toEqual([toolCallId]);
    expect(assistantText(agent.messages)).toMatch(/Done: I deleted \/tmp\/ck-retry\.txt\./);
    expect(await serverToolMessages(agent.threadId)).toHaveLength(1);
  });

  it('a resume without a synthetic message is unchanged: no closing snapshot', async () => {
    const { agent, events } = createAgent({ url: app.url });
    agent.addMessage({ id: `u-${randomUUID()}`, role: 'user', content: 'delete /tmp/ck-plain.txt' });
    await agent.runAgent();
    const [interrupt] = agent.pendingInterrupts;
    await agent.runAgent({
      resume: buildResumeArray(agent.pendingInterrupts, {
        [interrupt!.id]: { status: 'resolved', payload: { approved: true } },
      }),
    });
    expect(lastRun(events).map((event) => event.type)).not.toContain('MESSAGES_SNAPSHOT');
    expect(clientToolMessages(agent)).toHaveLength(1);
  });
});
