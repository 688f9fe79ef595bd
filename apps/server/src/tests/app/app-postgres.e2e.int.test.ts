import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type AppProcess, api, readSse, startAppProcess } from '../../../test-support/app-process';
import { tenantSchema } from '../../create-tenant-stores';

const ACME = 'acme-e2e-token-0123456789';
const schema = `e2e_${randomUUID().replaceAll('-', '').slice(0, 12)}`;

let a: AppProcess;
let b: AppProcess;
beforeAll(async () => {
  const env = {
    DATABASE_URL: inject('postgresUrl'),
    AWAKEN_PG_SCHEMA: schema,
    AWAKEN_TOKENS: `${ACME}:acme:alice`,
    AWAKEN_DEMO_DELAY_MS: '15',
    AWAKEN_LEASE_MS: '3000',
    AWAKEN_KEEPALIVE_MS: '200',
  };
  [a, b] = await Promise.all([startAppProcess(env), startAppProcess(env)]);
});
afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
  const admin = new pg.Client({ connectionString: inject('postgresUrl') });
  await admin.connect();
  await admin.query(`DROP SCHEMA IF EXISTS "${tenantSchema(schema, 'acme')}" CASCADE`);
  await admin.end();
});

function post(app: AppProcess, input: string): Promise<Response> {
  return fetch(`${app.url}/v1/runs`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${ACME}` },
    body: JSON.stringify({ agentId: 'demo', input }),
  });
}

function events(app: AppProcess, runId: string, lastEventId: number): Promise<Response> {
  return fetch(`${app.url}/v1/runs/${runId}/events`, {
    headers: { authorization: `Bearer ${ACME}`, 'last-event-id': String(lastEventId) },
  });
}

describe('two server processes on one PostgreSQL (DATABASE_URL: every store)', () => {
  it('logs that it runs on postgres', () => {
    expect(a.logs.find((entry) => entry.msg === 'awaken server listening')).toMatchObject({
      stores: 'postgres',
    });
  });

  it('a stream cut mid-run resumes with Last-Event-ID on the other process: no event lost or repeated', async () => {
    const response = await post(a, 'count to 40');
    const runId = response.headers.get('x-run-id') ?? '';
    const first = await readSse(response, { stopAfter: 8 });
    const rest = await readSse(await events(b, runId, first.ids.at(-1) ?? 0));
    const ids = [...first.ids, ...rest.ids];
    expect(ids).toEqual(ids.map((_, index) => index + 1));
    expect(rest.events.at(-1)).toMatchObject({ type: 'run_finish', status: 'done' });
    const text = [...first.events, ...rest.events]
      .filter((event) => event.type === 'text_delta')
      .map((event) => event.delta)
      .join('');
    expect(text).toBe(`${Array.from({ length: 40 }, (_, index) => index + 1).join(' ')}.`);
  });

  it('a run waits on one process; the decision goes to the other; the continuation streams from either', async () => {
    const response = await post(a, 'delete /tmp/old.log');
    const runId = response.headers.get('x-run-id') ?? '';
    const waited = await readSse(response);
    expect(waited.events.at(-1)).toMatchObject({ type: 'run_finish', status: 'waiting' });
    const suspended = waited.events.find((event) => event.type === 'tool_call_suspended');
    const last = waited.ids.at(-1) ?? 0;
    const decided = await api(b.url, `/v1/runs/${runId}/decision`, {
      token: ACME,
      body: { toolCallId: suspended?.toolCallId, decisionId: 'ok-1', result: { approved: true } },
    });
    expect(decided.status).toBe(200);
    const [onA, onB] = await Promise.all([
      events(a, runId, last).then((r) => readSse(r)),
      events(b, runId, last).then((r) => readSse(r)),
    ]);
    expect(onA.ids).toEqual(onB.ids);
    expect(onA.ids[0]).toBe(last + 1);
    expect(onA.events.at(-1)).toMatchObject({
      type: 'run_finish',
      status: 'done',
      response: 'Done: I deleted /tmp/old.log.',
    });
    expect((await api(a.url, `/v1/runs/${runId}`, { token: ACME })).body.status).toBe('done');
  });
});
