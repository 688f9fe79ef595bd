import { createAgentRuntime } from '@awaken/runtime';
import { createMemoryStores } from '@awaken/store-memory';
import { createManualClock } from '@awaken/testing';
import { describe, expect, it } from 'vitest';
import { RESTART_APPROVAL_MS, createDemoAgents } from './demo-agents';
import { createDemoModel } from './demo-model';

function demo() {
  const clock = createManualClock();
  const sent: string[] = [];
  const agents = createDemoAgents({ model: createDemoModel({ delayMs: 0 }), deleted: [], sent });
  const runtime = createAgentRuntime({ agents, stores: createMemoryStores(), now: clock.now });
  return { runtime, clock, sent };
}

describe('the demo agent', () => {
  it('"restart nginx": the approval expires after RESTART_APPROVAL_MS and the agent says so', async () => {
    const { runtime, clock } = demo();
    const first = await runtime.runToCompletion({ agentId: 'demo', input: 'restart nginx' });
    expect(first.waiting?.tickets[0]).toMatchObject({ toolName: 'restart_service' });
    clock.advance(RESTART_APPROVAL_MS);
    const done = await runtime.resumeRun(first.runId).result;
    expect(done.response).toBe('Nobody approved restart_service in time, so I did not run it.');
  });

  it('"transfer me to billing": the billing agent takes the run over and answers', async () => {
    const { runtime } = demo();
    const done = await runtime.runToCompletion({ agentId: 'demo', input: 'transfer me to billing' });
    expect(done).toMatchObject({
      status: 'done',
      steps: 2,
      response: 'This is billing: you were transferred to me. How can I help?',
    });
  });

  it('"send invoice 42": the non-idempotent tool runs once and the agent reports it', async () => {
    const { runtime, sent } = demo();
    const done = await runtime.runToCompletion({ agentId: 'demo', input: 'send invoice 42' });
    expect(done.response).toBe('Done: invoice 42 is sent.');
    expect(sent).toEqual(['42']);
  });
});
