import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { AGENT_ID, type HttpFixture, createHttpFixture } from '../../../test-support/http-fixture';

let fx: HttpFixture;
beforeAll(async () => { fx = await createHttpFixture(); });
afterAll(() => fx.close());

it('probe', async () => {
  const a = (await fx.json('/v1/threads', { body: {} })).body;
  const b = (await fx.json('/v1/threads', { body: {} })).body;
  const sub = await fx.json('/v1/runs', { body: { agentId: AGENT_ID, threadId: b.id, input: 'plain #x', stream: false } });
  const runB = sub.body.runId;
  await vi.waitFor(async () => expect((await fx.json(`/v1/runs/${runB}`)).body.status).toBe('done'), { timeout: 10000 });
  const subA = await fx.json('/v1/runs', { body: { agentId: AGENT_ID, threadId: a.id, input: 'plain #x', stream: false } });
  const runA = subA.body.runId;
  await vi.waitFor(async () => expect((await fx.json(`/v1/runs/${runA}`)).body.status).toBe('done'), { timeout: 10000 });
  const cases: Array<[string, Record<string, string>, string]> = [
    ['huge header', { 'last-event-id': `${'r'.repeat(5000)}:1` }, ''],
    ['huge query', {}, `?after=${'r'.repeat(5000)}:1`],
    ['neg', { 'last-event-id': `${runA}:-1` }, ''],
    ['float', { 'last-event-id': `${runA}:1.5` }, ''],
    ['big', { 'last-event-id': `${runA}:99999999999999999999` }, ''],
    ['foreign real', { 'last-event-id': `${runB}:1` }, ''],
    ['foreign via after', {}, `?after=${runB}:1`],
    ['bad after', {}, '?after=zzz'],
    ['future seq', { 'last-event-id': `${runA}:999999` }, ''],
    ['nonascii', { 'last-event-id': `${encodeURIComponent('é')}:1` }, ''],
    ['now + bad header', { 'last-event-id': 'bad' }, '?after=now'],
    ['array after', {}, '?after=a:1&after=b:2'],
  ];
  for (const [name, headers, q] of cases) {
    
    const r = await fx.call(`/v1/threads/${a.id}/events${q}`, { headers });
    let body = '';
    if (r.status !== 200) body = await r.text(); else { body = "(stream)"; await r.body?.cancel(); }
    console.log(name, r.status, body.slice(0, 300));
  }
});
