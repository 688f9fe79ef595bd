import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, inject, it, vi } from 'vitest';
import { type AppProcess, api, readSse, startAppProcess } from '../../../test-support/app-process';
import { PARALLEL_PROMPT, deletions, runEvents, runView } from './subagent-helpers';

/**
 * Two sub-agents ask in parallel; the process that ran them is killed (SIGKILL) while both
 * questions wait; another process on the same Redis serves the answers. Each child resumes at its
 * suspended call: it deletes once, and neither its earlier model turns nor its sibling run again.
 */
const WAIT = { timeout: 20_000, interval: 50 };
const apps: AppProcess[] = [];
afterAll(async () => {
  await Promise.all(apps.map((app) => app.kill()));
});

async function start(prefix: string): Promise<AppProcess> {
  const app = await startAppProcess({
    REDIS_URL: inject('redisUrl'),
    AWAKEN_REDIS_PREFIX: prefix,
    AWAKEN_DEMO_DELAY_MS: '0',
  });
  apps.push(app);
  return app;
}

const turnsIn = (events: Array<Record<string, any>>) =>
  events.filter((event) => event.type === 'inference_complete').length;

/** Model turns a run made, one `inference_complete` per call of the model, over its whole log. */
async function modelTurns(app: AppProcess, runId: string): Promise<number> {
  return turnsIn(await runEvents(app, runId));
}

/** Model turns of a waiting run's activation: its stream ends where the run waits. */
async function turnsUntilWaiting(app: AppProcess, runId: string): Promise<number> {
  return turnsIn((await readSse(await fetch(`${app.url}/v1/runs/${runId}/events`))).events);
}

describe('a sub-agent question survives kill -9 of the process that asked it', () => {
  it('answered on another process, each child resumes at its call: one deletion each, no model turn or sibling repeated', async () => {
    const prefix = `e2e-subcrash-${randomUUID().slice(0, 8)}`;
    const first = await start(prefix);
    const started = await api(first.url, '/v1/runs', {
      body: { agentId: 'demo', threadId: `crash-${randomUUID()}`, input: PARALLEL_PROMPT, stream: false },
    });
    expect(started.status).toBe(202);
    const runId: string = started.body.runId;
    const tickets = await vi.waitFor(async () => {
      const run = await runView(first, runId);
      expect(run.status).toBe('waiting');
      expect(run.waiting.tickets).toHaveLength(2);
      return run.waiting.tickets as Array<{
        ticketId: string;
        nested: { runId: string; arguments: unknown };
      }>;
    }, WAIT);
    const children = tickets.map((ticket) => ticket.nested.runId);
    expect(new Set(children).size).toBe(2);
    const turnsBefore = await Promise.all(children.map((child) => turnsUntilWaiting(first, child)));
    expect(turnsBefore.every((turns) => turns >= 1)).toBe(true);

    await first.kill();
    const second = await start(prefix);

    // answered in reverse order, on the process that never saw the questions
    for (const ticket of [...tickets].reverse()) {
      const decided = await api(second.url, `/v1/runs/${runId}/decision`, {
        body: { ticketId: ticket.ticketId, decisionId: `d-${randomUUID()}`, result: { approved: true } },
      });
      expect(decided.status).toBe(200);
      expect(decided.body.receipts).toMatchObject([{ status: 'accepted' }]);
    }
    await vi.waitFor(async () => expect((await runView(second, runId)).status).toBe('done'), WAIT);

    for (const [index, child] of children.entries()) {
      expect(await runView(second, child)).toMatchObject({ status: 'done', parentRunId: runId });
      expect(await deletions(second, child)).toEqual(['succeeded']);
      // the resumed child made only the turn after its tool: the turns before the crash are not repeated
      expect(await modelTurns(second, child)).toBe(turnsBefore[index]! + 1);
    }
    const parentTools = (await runEvents(second, runId)).filter(
      (event) => event.type === 'tool_call_done' && ['janitor', 'archivist'].includes(event.toolName),
    );
    expect(parentTools.map((event) => `${event.toolName}:${event.status}`).sort()).toEqual([
      'archivist:succeeded',
      'janitor:succeeded',
    ]);
  }, 90_000);
});
