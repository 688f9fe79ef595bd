import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { HttpAgent, buildResumeArray } from '@ag-ui/client';
import { serve } from '@hono/node-server';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { assistantText, checkedFetch, lastRun, wireProblems } from '../../../test-support/ag-ui-client';
import { type AppProcess, api, startAppProcess } from '../../../test-support/app-process';

// CopilotKit's own runtime (v2 handler of @copilotkit/runtime 1.75) in front of the reference server:
// browser → CopilotKit runtime (loopback) → HttpAgent → Awaken /v1/ag-ui (loopback)
let app: AppProcess;
let runtimeUrl: string;
let closeRuntime: () => void;
beforeAll(async () => {
  process.env.COPILOTKIT_TELEMETRY_DISABLED = 'true';
  app = await startAppProcess({ AWAKEN_DEMO_DELAY_MS: '5' });
  const { CopilotRuntime, createCopilotRuntimeHandler } = await import('@copilotkit/runtime/v2');
  const runtime = new CopilotRuntime({
    agents: { demo: new HttpAgent({ url: `${app.url}/v1/ag-ui/agents/demo/run` }) as never },
  });
  const handler = createCopilotRuntimeHandler({ runtime, basePath: '/api/copilotkit' });
  const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
    const started = serve({ fetch: handler, port: 0, hostname: '127.0.0.1' }, () => resolve(started));
  });
  runtimeUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/copilotkit`;
  closeRuntime = () => server.close();
});
afterEach(async () => {
  expect(await wireProblems()).toEqual([]);
});
afterAll(async () => {
  closeRuntime?.();
  await app?.stop();
});

async function toolResults(threadId: string): Promise<Array<Record<string, any>>> {
  const { body } = await api(app.url, `/v1/threads/${threadId}/messages?limit=1000`);
  return body.items
    .map((item: any) => item.message ?? item)
    .filter((message: any) => message.role === 'tool');
}

/** What CopilotKit's client core runs: an HttpAgent on the runtime's `/agent/{id}/run` route. */
function copilotAgent() {
  const agent = new HttpAgent({
    url: `${runtimeUrl}/agent/demo/run`,
    threadId: randomUUID(),
    fetch: checkedFetch,
  });
  const events: Array<{ type: string }> = [];
  agent.subscribe({
    onEvent: ({ event }) => {
      events.push(event);
    },
  });
  return { agent, events };
}

/**
 * CopilotKit's resume (useInterrupt, CopilotKit#6999): a synthetic tool message with the payload for
 * the interrupted call, `resume[]`, and the interrupted run's own `runId` pinned.
 */
async function resumeLikeCopilotKit(
  agent: HttpAgent,
  events: ReadonlyArray<{ type: string }>,
  payload: Record<string, unknown>,
) {
  const [interrupt] = agent.pendingInterrupts;
  const runId = (lastRun(events as never)[0] as unknown as { runId: string }).runId;
  agent.addMessage({
    id: randomUUID(),
    role: 'tool',
    toolCallId: interrupt!.toolCallId!,
    content: JSON.stringify(payload),
  });
  await agent.runAgent({
    runId,
    resume: buildResumeArray(agent.pendingInterrupts, { [interrupt!.id]: { status: 'resolved', payload } }),
  });
}

describe('CopilotKit runtime in front of the reference server', () => {
  it('approve: the interrupt crosses the runtime, the resume runs the tool once, the answer follows', async () => {
    const { agent, events } = copilotAgent();
    agent.addMessage({ id: 'u1', role: 'user', content: 'delete /tmp/copilot.txt' });
    await agent.runAgent();
    expect(lastRun(events as never).at(-1)).toMatchObject({
      type: 'RUN_FINISHED',
      outcome: { type: 'interrupt' },
    });
    expect(agent.pendingInterrupts).toMatchObject([{ reason: 'tool_call' }]);
    await resumeLikeCopilotKit(agent, events, { approved: true });
    expect(agent.pendingInterrupts).toEqual([]);
    expect(assistantText(agent.messages)).toBe(
      'I will delete /tmp/copilot.txt. Done: I deleted /tmp/copilot.txt.',
    );
    expect(await toolResults(agent.threadId)).toMatchObject([
      { outcome: 'succeeded', content: { deleted: '/tmp/copilot.txt' } },
    ]);
  });

  it('deny: the tool never runs and the model says so', async () => {
    const { agent, events } = copilotAgent();
    agent.addMessage({ id: 'u1', role: 'user', content: 'delete /tmp/keep-copilot.txt' });
    await agent.runAgent();
    await resumeLikeCopilotKit(agent, events, { approved: false, reason: 'no' });
    expect(assistantText(agent.messages)).toMatch(/I did not run delete_file/);
    expect(await toolResults(agent.threadId)).toMatchObject([{ outcome: 'cancelled' }]);
  });

  it('a useHumanInTheLoop-style frontend tool: the call waits for the client, its tool message answers it', async () => {
    const confirm = {
      name: 'confirm',
      description: 'Asks the user to confirm',
      parameters: { type: 'object', properties: { question: { type: 'string' } } },
    };
    const { agent, events } = copilotAgent();
    agent.addMessage({ id: 'u1', role: 'user', content: 'use the confirm tool with {"question":"go?"}' });
    await agent.runAgent({ tools: [confirm] });
    const start = lastRun(events as never).find((event) => event.type === 'TOOL_CALL_START') as any;
    expect(lastRun(events as never).at(-1)).toMatchObject({
      outcome: { type: 'success', pendingToolCallIds: [start.toolCallId] },
    });
    agent.addMessage({ id: randomUUID(), role: 'tool', toolCallId: start.toolCallId, content: '"yes"' });
    await agent.runAgent({ tools: [confirm] });
    expect(assistantText(agent.messages)).toBe('confirm answered yes.');
  });
});
