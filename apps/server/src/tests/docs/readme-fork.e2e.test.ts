import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type AppProcess, startAppProcess } from '../../../test-support/app-process';

const README = readFileSync(new URL('../../../../../README.md', import.meta.url), 'utf8');
const section = README.slice(README.indexOf('## Fork a run at a step'), README.indexOf('## Packages'));
/** Each `curl` of the section: its path and `-d` body, in order. */
const curls = [
  ...section.matchAll(/curl[^\n]*?http:\/\/127\.0\.0\.1:3000(\S+)([^`]*?)(?=\n```|\ncurl)/g),
].map((match) => ({ path: match[1] ?? '', body: /-d '([^']+)'/.exec(match[2] ?? '')?.[1] }));

let app: AppProcess;
beforeAll(async () => {
  app = await startAppProcess();
});
afterAll(async () => {
  await app.stop();
});

async function send(step: (typeof curls)[number] | undefined): Promise<any> {
  if (!step) throw new Error('the README fork section has fewer curl commands than expected');
  const response = await fetch(`${app.url}${step.path}`, {
    method: step.body ? 'POST' : 'GET',
    ...(step.body ? { headers: { 'content-type': 'application/json' }, body: step.body } : {}),
  });
  return response.json();
}

/** The run as `curl` shows it once it no longer runs. */
async function settled(step: (typeof curls)[number] | undefined): Promise<any> {
  return vi.waitFor(
    async () => {
      const run = await send(step);
      expect(['waiting', 'done']).toContain(run.status);
      return run;
    },
    { timeout: 15_000, interval: 100 },
  );
}

describe('the README fork walkthrough, as written', () => {
  it('forks the invoice run at the step that sent it: the fork asks, the recorded result is reused, nothing is sent twice', async () => {
    expect(curls.map((step) => step.path)).toEqual([
      '/v1/runs',
      '/v1/runs/run-3',
      '/v1/runs/run-3/fork',
      '/v1/runs/fork-1',
      '/v1/runs/fork-1/decision',
      '/v1/runs/fork-1',
    ]);
    const [start, source, fork, forked, decide, done] = curls;
    expect(await send(start)).toMatchObject({ runId: 'run-3', threadId: 'invoices' });
    const run = await settled(source);
    expect(run).toMatchObject({ status: 'done', steps: 2 });
    expect(section).toContain(`"steps":${run.steps},...,"response":"${run.response}"`);

    const accepted = await send(fork);
    expect(accepted).toMatchObject({
      runId: 'fork-1',
      forkOf: { runId: 'run-3', threadId: 'invoices', step: 1 },
    });
    expect(section).toContain(`"forkOf":${JSON.stringify(accepted.forkOf)}`);
    const waiting = await settled(forked);
    expect(waiting.status).toBe('waiting');
    const ticket = waiting.waiting.tickets[0];
    expect(ticket).toMatchObject({ action: 'fork_repeat', toolName: 'send_invoice' });
    expect(section).toContain(`"ticketId":"${ticket.ticketId}"`);
    expect(ticket.parameters.recorded[0]).toMatchObject({
      arguments: { invoice: '42' },
      result: { sent: '42' },
    });

    expect((await send(decide)).receipts[0].status).toBe('accepted');
    const finished = await vi.waitFor(
      async () => {
        const view = await send(done);
        expect(view.status).toBe('done');
        return view;
      },
      { timeout: 15_000, interval: 100 },
    );
    expect(section).toContain(`"response":"${finished.response}"`);
    // the invoice was sent once: by run-3 (the demo logs each start of send_invoice's body)
    expect(app.output().match(/sending invoice/g)).toHaveLength(1);
  });
});
