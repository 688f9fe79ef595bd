import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type AppProcess, api, readSse, startAppProcess } from '../../../test-support/app-process';
import { threadTally } from '../../../test-support/retrying-fetch';

let app: AppProcess;
beforeAll(async () => {
  app = await startAppProcess({ AWAKEN_DEMO_DELAY_MS: '5' });
});
afterAll(async () => {
  await app?.stop();
});

const start = (body: Record<string, unknown>) =>
  fetch(`${app.url}/v1/runs`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ agentId: 'demo', ...body }),
  });

describe('POST /v1/runs sent again with its runId never starts a second run', () => {
  it('the stream of the first answer lost, the request sent again: 409 naming the run, which runs on; send_invoice ran once', async () => {
    const runId = `run-${randomUUID()}`;
    const threadId = `thread-${randomUUID()}`;
    const request = { runId, threadId, input: 'send invoice 98' };
    const first = await start(request);
    expect(first.status).toBe(200);
    await first.body?.cancel();
    const again = await start(request);
    expect(again.status).toBe(409);
    expect((await again.json()).error).toMatchObject({ code: 'conflict', details: { runId } });
    // the run the first request started answers on its event stream
    const { events } = await readSse(await fetch(`${app.url}/v1/runs/${runId}/events`));
    expect(events.at(-1)).toMatchObject({ type: 'run_finish' });
    await vi.waitFor(async () => expect((await api(app.url, `/v1/runs/${runId}`)).body.status).toBe('done'));
    expect(await threadTally(app.url, threadId)).toEqual({ runs: ['done'], invoices: 1 });
  });

  it('the same request twice at once (stream: false too): one run, the other answer is 409', async () => {
    for (const stream of [true, false]) {
      const runId = `run-${randomUUID()}`;
      const threadId = `thread-${randomUUID()}`;
      const request = { runId, threadId, input: 'send invoice 99', stream };
      const answers = await Promise.all([start(request), start(request)]);
      const statuses = answers.map((answer) => answer.status).sort();
      expect(statuses).toEqual([stream ? 200 : 202, 409]);
      await Promise.all(answers.map((answer) => answer.text()));
      await vi.waitFor(
        async () => expect((await api(app.url, `/v1/runs/${runId}`)).body.status).toBe('done'),
        {
          timeout: 15_000,
          interval: 50,
        },
      );
      expect(await threadTally(app.url, threadId)).toEqual({ runs: ['done'], invoices: 1 });
    }
  });
});
