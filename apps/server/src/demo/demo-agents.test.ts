import { approve, deny } from '@awaken/contract';
import { createAgentRuntime } from '@awaken/runtime';
import { createMemoryStores } from '@awaken/store-memory';
import { createManualClock } from '@awaken/testing';
import { describe, expect, it } from 'vitest';
import { RESTART_APPROVAL_MS, createDemoAgents } from './demo-agents';
import { createDemoModel } from './demo-model';

function demo() {
  const clock = createManualClock();
  const sent: string[] = [];
  const deleted: string[] = [];
  const stores = createMemoryStores();
  const agents = createDemoAgents({ model: createDemoModel({ delayMs: 0 }), deleted, sent });
  const runtime = createAgentRuntime({ agents, stores, now: clock.now });
  return { runtime, clock, sent, deleted, stores };
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

  it('"ask the janitor to delete /tmp/report.txt": the janitor\'s delete_file asks the demo\'s human (inherited rule); approved, it deletes once', async () => {
    const { runtime, deleted, stores } = demo();
    const first = await runtime.runToCompletion({
      agentId: 'demo',
      input: 'ask the janitor to delete /tmp/report.txt',
    });
    const [ticket] = first.waiting?.tickets ?? [];
    expect(ticket).toMatchObject({
      toolName: 'janitor',
      action: 'confirm',
      message: expect.stringMatching(/^janitor › delete_file: /),
      nested: {
        toolName: 'delete_file',
        arguments: { path: '/tmp/report.txt' },
        agentPath: ['demo', 'janitor'],
      },
    });
    expect(deleted).toEqual([]);
    const done = await runtime.resumeRun(first.runId, { decisions: [approve(ticket!)] }).result;
    expect(done.response).toBe('The janitor deleted /tmp/report.txt.');
    expect(deleted).toEqual(['/tmp/report.txt']);
    expect((await stores.threadRuns.getRun(ticket!.nested!.runId))?.status).toBe('done');
  });

  it('denied, the janitor deletes nothing, says so, and no child is left waiting', async () => {
    const { runtime, deleted, stores } = demo();
    const first = await runtime.runToCompletion({
      agentId: 'demo',
      input: 'ask the janitor to delete /tmp/report.txt',
    });
    const [ticket] = first.waiting?.tickets ?? [];
    const done = await runtime.resumeRun(first.runId, { decisions: [deny(ticket!, 'keep it')] }).result;
    expect(done.response).toBe(
      'The janitor did not delete /tmp/report.txt: "I did not run delete_file: keep it."',
    );
    expect(deleted).toEqual([]);
    expect((await stores.threadRuns.getRun(ticket!.nested!.runId))?.status).toBe('done');
  });

  it('two sub-agents in parallel: each question on its own ticket, answered in either order', async () => {
    const { runtime, deleted } = demo();
    const first = await runtime.runToCompletion({
      agentId: 'demo',
      input: 'ask the janitor to delete /tmp/a.txt and the archivist to delete /tmp/b.txt',
    });
    const tickets = first.waiting?.tickets ?? [];
    expect(
      tickets.map((ticket) => [ticket.toolName, ticket.nested?.agentPath, ticket.nested?.arguments]),
    ).toEqual([
      ['janitor', ['demo', 'janitor'], { path: '/tmp/a.txt' }],
      ['archivist', ['demo', 'archivist'], { path: '/tmp/b.txt' }],
    ]);
    const [a, b] = tickets;
    const second = await runtime.resumeRun(first.runId, { decisions: [approve(b!)] }).result;
    expect(second.status).toBe('waiting');
    expect(deleted).toEqual(['/tmp/b.txt']);
    const done = await runtime.resumeRun(first.runId, { decisions: [deny(a!, 'not that one')] }).result;
    expect(done.response).toBe(
      'The janitor did not delete /tmp/a.txt: "I did not run delete_file: not that one." The archivist deleted /tmp/b.txt.',
    );
    expect(deleted).toEqual(['/tmp/b.txt']);
  });
});
