import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, readSse } from '../../../test-support/app-process';
import { loadConfig } from '../../config';
import { type AppServer, startAppServer } from '../../create-app-server';

/**
 * Ids outside Latin-1 (a header value Node refuses to write) on every streaming route, through the
 * real server on loopback: the header write used to fail after the run was submitted, answering a
 * text/plain 500 (so a retrying client ran it twice) while the request log said 200.
 */
let server: AppServer;
const lines: string[] = [];
beforeAll(async () => {
  const sink = new Writable({
    write(chunk, _encoding, done) {
      lines.push(...String(chunk).split('\n').filter(Boolean));
      done();
    },
  });
  const config = loadConfig({ PORT: '0', AWAKEN_DEMO_DELAY_MS: '60', AWAKEN_KEEPALIVE_MS: '200' });
  server = await startAppServer(config, pino({ level: 'info' }, sink));
});
afterAll(() => server?.stop());

const THREAD = '日本-スレッド-😀';
const RUN = 'ラン-🏃';

function requestLogsOf(path: string): Array<Record<string, any>> {
  return lines
    .map((line) => JSON.parse(line) as Record<string, any>)
    .filter((entry) => entry.msg === 'request' && String(entry.route).startsWith(path));
}

async function post(path: string, body: unknown): Promise<Response> {
  return fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

describe('ids outside Latin-1 on the streaming routes (real server)', () => {
  it('POST /v1/runs streams, with the ids percent-encoded in its headers, and runs once', async () => {
    const response = await post('/v1/runs', {
      agentId: 'demo',
      threadId: THREAD,
      runId: RUN,
      input: 'delete /tmp/report.txt',
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    expect(response.headers.get('x-thread-id')).toBe(encodeURIComponent(THREAD));
    expect(response.headers.get('x-run-id')).toBe(encodeURIComponent(RUN));
    const stream = await readSse(response);
    expect(stream.events.at(-1)).toMatchObject({ type: 'run_finish', status: 'waiting' });
    const runs = await api(server.url, `/v1/threads/${encodeURIComponent(THREAD)}/runs`);
    expect(runs.body.items).toHaveLength(1);
    expect(requestLogsOf('/v1/runs').map((entry) => entry.status)).toEqual([200]);
  });

  it('GET /v1/runs/:runId/events streams', async () => {
    const response = await fetch(`${server.url}/v1/runs/${encodeURIComponent(RUN)}/events`);
    expect(response.status).toBe(200);
    expect(response.headers.get('x-thread-id')).toBe(encodeURIComponent(THREAD));
    const stream = await readSse(response);
    expect(stream.events[0]).toMatchObject({ type: 'run_start' });
  });

  it('POST /v1/ai-sdk/chat and /v1/ai-sdk/agents/:agentId/chat stream; /chat/:id/stream replays a live run', async () => {
    for (const [path, id] of [
      ['/v1/ai-sdk/chat', '会話-🎨'],
      ['/v1/ai-sdk/agents/demo/chat', 'чат-Ω-💬'],
    ] as const) {
      const response = await post(path, {
        id,
        trigger: 'submit-message',
        messages: [{ id: 'u1', role: 'user', parts: [{ type: 'text', text: 'count to 20' }] }],
      });
      expect(response.status, path).toBe(200);
      expect(response.headers.get('content-type')).toContain('text/event-stream');
      expect(response.headers.get('x-thread-id')).toBe(encodeURIComponent(id));
      if (path === '/v1/ai-sdk/chat') {
        // the run still counts: its replay is served while it is live
        const replay = await fetch(`${server.url}/v1/ai-sdk/chat/${encodeURIComponent(id)}/stream`);
        expect(replay.status).toBe(200);
        expect(replay.headers.get('x-thread-id')).toBe(encodeURIComponent(id));
        await replay.text();
      }
      expect(await response.text()).toContain('[DONE]');
      const runs = await api(server.url, `/v1/threads/${encodeURIComponent(id)}/runs`);
      expect(runs.body.items).toHaveLength(1);
    }
    expect(requestLogsOf('/v1/ai-sdk').every((entry) => entry.status === 200)).toBe(true);
  });

  it('POST /v1/mailbox/submit queues once and answers 202 with the ids', async () => {
    const response = await api(server.url, '/v1/mailbox/submit', {
      body: { agentId: 'demo', threadId: 'キュー-📬', input: 'weather in Paris' },
    });
    expect(response.status).toBe(202);
    expect(response.body.threadId).toBe('キュー-📬');
  });
});
