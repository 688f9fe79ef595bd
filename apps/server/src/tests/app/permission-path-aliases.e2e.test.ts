import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type AppProcess, api, readSse, startAppProcess } from '../../../test-support/app-process';

let app: AppProcess;
beforeAll(async () => {
  app = await startAppProcess({ AWAKEN_DEMO_DELAY_MS: '0' });
});
afterAll(async () => {
  await app.stop();
});

const WAIT = { timeout: 15_000, interval: 25 };

/** Spellings of a path under `/etc` (the demo denies `delete_file(/etc/**)`) that a literal match misses. */
const ALIASES = ['/tmp/../etc/passwd', '//etc/passwd', '/./etc/passwd', '/etc'] as const;

async function start(input: string) {
  const response = await fetch(`${app.url}/v1/runs`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ agentId: 'demo', input }),
  });
  expect(response.status).toBe(200);
  const stream = await readSse(response);
  return {
    runId: response.headers.get('x-run-id') ?? '',
    threadId: response.headers.get('x-thread-id') ?? '',
    ...stream,
  };
}

/** The tool messages the server's thread holds: what really ran, with what. */
async function toolResults(threadId: string): Promise<Array<Record<string, any>>> {
  const { body } = await api(app.url, `/v1/threads/${encodeURIComponent(threadId)}/messages?limit=1000`);
  return body.items.map((item: any) => item.message).filter((message: any) => message.role === 'tool');
}

describe('the demo deny rule delete_file(/etc/**) against path aliases, over real HTTP', () => {
  it.each(ALIASES)('an approval whose edited path is %j is refused: the tool never runs', async (path) => {
    const run = await start('delete /tmp/report.txt');
    expect(run.events.at(-1)).toMatchObject({ type: 'run_finish', status: 'waiting' });
    const ticket = run.events.find((event) => event.type === 'tool_call_suspended')!;
    const decided = await api(app.url, `/v1/runs/${run.runId}/decision`, {
      body: { toolCallId: ticket.toolCallId, result: { approved: true, editedArguments: { path } } },
    });
    expect(decided.body.receipts[0].status).toBe('accepted');
    const done = await vi.waitFor(async () => {
      const got = await api(app.url, `/v1/runs/${run.runId}`);
      expect(got.body.status).toBe('done');
      return got.body;
    }, WAIT);
    expect(done.response).toMatch(
      /^I did not run delete_file: .*Permission denied: denied by permission rule/,
    );
    const results = await toolResults(run.threadId);
    expect(results).toHaveLength(1);
    expect(results[0]).toMatchObject({ toolName: 'delete_file', outcome: 'failed' });
    expect(JSON.stringify(results[0])).not.toContain('"deleted"');
  });

  it.each(ALIASES)('the model asking to delete %j is refused by the rule, without waiting', async (path) => {
    const run = await start(`delete ${path}`);
    expect(run.events.some((event) => event.type === 'tool_call_suspended')).toBe(false);
    expect(run.events.at(-1)).toMatchObject({ type: 'run_finish', status: 'done' });
    expect(run.events.at(-1)?.response).toMatch(/^I did not run delete_file: .*Permission denied/);
  });
});
