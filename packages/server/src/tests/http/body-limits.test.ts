import type { AgentEventOf } from '@awaken/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AGENT_ID, type HttpFixture, createHttpFixture, startRun } from '../../../test-support/http-fixture';

let fx: HttpFixture;
beforeAll(async () => {
  fx = await createHttpFixture();
});
afterAll(() => fx.close());

/** JSON text of a value nested `depth` objects deep. */
function deep(depth: number): string {
  return `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
}

/** Nothing of the refused request was written: no thread, so no run and no dispatch either. */
async function expectNothingWritten(threadId: string, runId: string): Promise<void> {
  expect((await fx.json(`/v1/threads/${threadId}`)).status).toBe(404);
  expect((await fx.json(`/v1/runs/${runId}`)).status).toBe(404);
  expect((await fx.json(`/v1/threads/${threadId}/dispatches`)).status).toBe(404);
  expect((await fx.json(`/v1/threads/${threadId}/runs`)).status).toBe(404);
}

describe('JSON nested too deep is a 422 naming the field, at the edge', () => {
  for (const path of ['/v1/runs', '/v1/mailbox/submit']) {
    it(`${path}: a context 10,000 levels deep is refused and writes nothing`, async () => {
      const threadId = `deep-${path.length}`;
      const runId = `deep-run-${path.length}`;
      const refused = await fx.json(path, {
        raw: `{"agentId":"${AGENT_ID}","threadId":"${threadId}","runId":"${runId}","input":"x","context":${deep(10_000)}}`,
      });
      expect(refused.status).toBe(422);
      expect(refused.body.error.code).toBe('validation_failed');
      expect(refused.body.error.message).toMatch(/^invalid body: context: .*deeper than \d+ levels/);
      expect(refused.body.error.details).toMatchObject({ issues: [{ path: 'context' }] });
      await expectNothingWritten(threadId, runId);
    });
  }

  it('a decision whose result is 10,000 levels deep is refused; the run still waits', async () => {
    const run = await startRun(fx, { input: 'approve:1' });
    const ticket = run.events.find(
      (event): event is AgentEventOf<'tool_call_suspended'> => event.type === 'tool_call_suspended',
    );
    const refused = await fx.json(`/v1/runs/${run.runId}/decision`, {
      raw: `{"toolCallId":"${ticket?.toolCallId}","result":${deep(10_000)}}`,
    });
    expect(refused.status).toBe(422);
    expect(refused.body.error.message).toMatch(/^invalid body: result: /);
    expect((await fx.json(`/v1/runs/${run.runId}`)).body.status).toBe('waiting');
  });

  it('a body nested just under the limit passes the edge', async () => {
    const ok = await fx.json('/v1/mailbox/submit', {
      raw: `{"agentId":"${AGENT_ID}","input":"x","context":{"x":${deep(100)}}}`,
    });
    expect(ok.status).toBe(202);
  });
});

describe("a request the run's own checks refuse (422) writes nothing", () => {
  it('a lone surrogate in the input', async () => {
    for (const path of ['/v1/runs', '/v1/mailbox/submit']) {
      const threadId = `surrogate-${path.length}`;
      const runId = `surrogate-run-${path.length}`;
      const refused = await fx.json(path, {
        body: { agentId: AGENT_ID, threadId, runId, input: 'cut \ud83d here' },
      });
      expect(refused.status, path).toBe(422);
      await expectNothingWritten(threadId, runId);
    }
  });

  it('a context nested deeper than a run may store', async () => {
    const threadId = 'deep-context-store';
    const runId = 'deep-context-store-run';
    const refused = await fx.json('/v1/mailbox/submit', {
      raw: `{"agentId":"${AGENT_ID}","threadId":"${threadId}","runId":"${runId}","input":"x","context":{"x":${deep(300)}}}`,
    });
    expect(refused.status).toBe(422);
    await expectNothingWritten(threadId, runId);
  });

  it('an unknown agent, and a client tool named like a server tool', async () => {
    const unknown = await fx.json('/v1/mailbox/submit', {
      body: { agentId: 'nobody', threadId: 'no-agent', runId: 'no-agent-run', input: 'x' },
    });
    expect(unknown.status).toBeGreaterThanOrEqual(400);
    expect(unknown.status).toBeLessThan(500);
    await expectNothingWritten('no-agent', 'no-agent-run');
    const clash = await fx.json('/v1/mailbox/submit', {
      body: {
        agentId: AGENT_ID,
        threadId: 'tool-clash',
        runId: 'tool-clash-run',
        input: 'x',
        tools: [{ name: 'plain', parameters: { type: 'object' } }],
      },
    });
    expect(clash.status).toBe(422);
    await expectNothingWritten('tool-clash', 'tool-clash-run');
  });
});

describe('the service refuses what the edge would (for embedders without HTTP)', () => {
  it('submit with a context 10,000 levels deep is validation_failed naming context, not a RangeError', async () => {
    let context: Record<string, unknown> = { leaf: 1 };
    for (let level = 0; level < 10_000; level += 1) context = { a: context };
    const refused = fx.services.acme.submit({
      agentId: AGENT_ID,
      threadId: 'svc-deep',
      input: 'x',
      context: context as never,
    });
    await expect(refused).rejects.toMatchObject({ code: 'validation_failed', details: { field: 'context' } });
    expect((await fx.json('/v1/threads/svc-deep')).status).toBe(404);
  });
});
