import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type AppProcess, api, readSse, startAppProcess } from '../../../test-support/app-process';

let app: AppProcess;
beforeAll(async () => {
  app = await startAppProcess({ AWAKEN_DEMO_DELAY_MS: '2', AWAKEN_SHUTDOWN_GRACE_MS: '200' });
});
afterAll(async () => {
  await app.stop();
});

const WAIT = { timeout: 15_000, interval: 25 };

async function waitingRun(input: string) {
  const response = await fetch(`${app.url}/v1/runs`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ agentId: 'demo', input }),
  });
  const { events } = await readSse(response);
  const ticketId: string = events.find((event) => event.type === 'tool_call_suspended')?.ticket.suspension.id;
  return {
    runId: response.headers.get('x-run-id') ?? '',
    threadId: response.headers.get('x-thread-id') ?? '',
    ticketId,
    lastSeq: events.at(-1)?.seq as number,
  };
}

async function approveWithEdit(runId: string, ticketId: string, editedArguments: unknown) {
  const decided = await api(app.url, `/v1/runs/${runId}/decision`, {
    body: { ticketId, result: { approved: true, editedArguments } },
  });
  expect(decided.status).toBe(200);
  return vi.waitFor(async () => {
    const run = await api(app.url, `/v1/runs/${runId}`);
    expect(run.body.status).toBe('done');
    return run.body;
  }, WAIT);
}

async function toolMessageOf(threadId: string) {
  const messages = await api(app.url, `/v1/threads/${threadId}/messages`);
  const items: Array<{ message: { role: string } }> = messages.body.items ?? messages.body.messages;
  return items.map((item) => item.message ?? item).find((message) => message.role === 'tool') as any;
}

describe('edited arguments stay honest and safe', () => {
  it("the model's history says a human changed the arguments, and to what", async () => {
    const run = await waitingRun('delete /tmp/draft.txt');
    const done = await approveWithEdit(run.runId, run.ticketId, { path: '/tmp/draft-old.txt' });
    expect(done.response).toBe('Done: I deleted /tmp/draft-old.txt.');
    const tool = await toolMessageOf(run.threadId);
    expect(tool).toMatchObject({
      outcome: 'succeeded',
      content: {
        argumentsEditedByHuman: { from: { path: '/tmp/draft.txt' }, to: { path: '/tmp/draft-old.txt' } },
        result: { deleted: '/tmp/draft-old.txt' },
      },
    });
  });

  it('an edit into what a deny rule forbids never runs; the human is told why; the audit keeps both', async () => {
    const run = await waitingRun('delete /tmp/harmless.txt');
    const done = await approveWithEdit(run.runId, run.ticketId, { path: '/etc/passwd' });
    expect(done.response).toContain('I did not run delete_file');
    expect(done.response).toContain('delete_file(/etc/**)');
    // what the human sees on the run's event stream: the call refused, naming the rule
    const after = await readSse(await fetch(`${app.url}/v1/runs/${run.runId}/events?after=${run.lastSeq}`));
    const finished = after.events.find((event) => event.type === 'tool_call_done');
    expect(finished).toMatchObject({ toolName: 'delete_file' });
    expect(finished?.status).not.toBe('succeeded');
    expect(JSON.stringify(finished?.content)).toContain('Permission denied');
    expect(finished?.content.argumentsEditedByHuman).toEqual({
      from: { path: '/tmp/harmless.txt' },
      to: { path: '/etc/passwd' },
    });
    const tool = await toolMessageOf(run.threadId);
    expect(tool.content.argumentsEditedByHuman.to).toEqual({ path: '/etc/passwd' });
    const audit = await api(app.url, `/v1/runs/${run.runId}/decisions`);
    expect(audit.body.decisions).toMatchObject([
      {
        channel: 'api',
        shown: { toolName: 'delete_file', arguments: { path: '/tmp/harmless.txt' } },
        answer: { approved: true, editedArguments: { path: '/etc/passwd' } },
      },
    ]);
  });

  it("an edit the tool's schema rejects never runs, and says which field", async () => {
    const run = await waitingRun('delete /tmp/schema.txt');
    const done = await approveWithEdit(run.runId, run.ticketId, { path: 42 });
    expect(done.response).toContain('I did not run delete_file');
    const tool = await toolMessageOf(run.threadId);
    expect(tool.outcome).toBe('failed');
    expect(JSON.stringify(tool.content)).toContain('path');
    expect(tool.content.argumentsEditedByHuman.to).toEqual({ path: 42 });
  });
});
