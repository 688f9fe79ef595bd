import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AppProcess, readSse, startAppProcess } from '../../../test-support/app-process';

const README = readFileSync(new URL('../../../../../README.md', import.meta.url), 'utf8');
const section = README.slice(README.indexOf('## Try it'), README.indexOf('### A `useChat` front end'));
/** The AG-UI and A2A doors' section: its A2A curl. */
const doors = README.slice(
  README.indexOf('### AG-UI (CopilotKit) and A2A clients'),
  README.indexOf('## Sub-agents'),
);
/** Each `curl` of the walkthrough: its path, `-d` body and `Last-Event-ID`, in order. */
const curls = [
  ...section.matchAll(/curl[^\n]*?http:\/\/127\.0\.0\.1:3000(\S+)([^`]*?)(?=\n```|\ncurl)/g),
].map((match) => ({
  path: match[1] ?? '',
  body: /-d '([^']+)'/.exec(match[2] ?? '')?.[1],
  lastEventId: /Last-Event-ID: (\d+)/.exec(match[2] ?? '')?.[1],
}));

let app: AppProcess;
beforeAll(async () => {
  app = await startAppProcess();
});
afterAll(async () => {
  await app.stop();
});

async function send(step: (typeof curls)[number] | undefined): Promise<Response> {
  if (!step) throw new Error('the README walkthrough has fewer curl commands than expected');
  return fetch(`${app.url}${step.path}`, {
    method: step.body ? 'POST' : 'GET',
    headers: {
      ...(step.body ? { 'content-type': 'application/json' } : {}),
      ...(step.lastEventId ? { 'last-event-id': step.lastEventId } : {}),
    },
    ...(step.body ? { body: step.body } : {}),
  });
}

describe('the README curl walkthrough, as written', () => {
  it('starts a run that waits, shows it waiting, approves it, and streams its end after Last-Event-ID', async () => {
    expect(curls.map((step) => step.path)).toEqual([
      '/v1/runs',
      '/v1/runs/run-1',
      '/v1/threads/walkthrough/active-run',
      '/v1/runs/run-1/decision',
      '/v1/runs/run-1/events',
    ]);
    const [start, run, active, decide, events] = curls;
    const first = await readSse(await send(start));
    expect(first.events.at(-1)).toMatchObject({ type: 'run_finish', status: 'waiting' });
    expect(String(first.ids.at(-1))).toBe(events?.lastEventId);
    expect(section).toContain(
      `"id":"${first.events.find((event) => event.type === 'tool_call_suspended')?.ticket.suspension.id}"`,
    );
    expect((await (await send(run)).json()).status).toBe('waiting');
    expect((await (await send(active)).json()).activeRun.kind).toBe('open');
    const decided = await (await send(decide)).json();
    expect(decided.receipts[0].status).toBe('accepted');
    const rest = await readSse(await send(events));
    const finish = rest.events.at(-1);
    expect(finish).toMatchObject({ type: 'run_finish', status: 'done' });
    expect(section).toContain(`id: ${rest.ids.at(-1)}  {"type":"run_finish"`);
    expect(section).toContain(`"response":"${finish?.response}"`);
  });

  it('the A2A curl of the doors section answers as the README shows', async () => {
    const [, path, rest] = /curl (http:\/\/127\.0\.0\.1:3000(\S+))([^`]*?)\n```/.exec(doors)?.slice(1) ?? [];
    const body = /-d '([^']+)'/.exec(rest ?? '')?.[1];
    expect(path).toBe('/v1/a2a');
    const response = await fetch(`${app.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: body ?? '',
    });
    const answer = await response.json();
    expect(answer.result).toMatchObject({ kind: 'task', status: { state: 'completed' } });
    const text = answer.result.artifacts[0].parts[0].text as string;
    expect(doors).toContain(text.slice(text.indexOf('It is')));
  });
});
