import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AppProcess, readSse, startAppProcess } from '../../../test-support/app-process';

const README = readFileSync(new URL('../../../../../README.md', import.meta.url), 'utf8');
const section = README.slice(README.indexOf('## Sub-agents'), README.indexOf('## Replay a run offline'));
/** Each `curl` of the section: its path, `-d` body and `Last-Event-ID`, in order. */
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
  if (!step) throw new Error('the README sub-agent section has fewer curl commands than expected');
  return fetch(`${app.url}${step.path}`, {
    method: step.body ? 'POST' : 'GET',
    headers: {
      ...(step.body ? { 'content-type': 'application/json' } : {}),
      ...(step.lastEventId ? { 'last-event-id': step.lastEventId } : {}),
    },
    ...(step.body ? { body: step.body } : {}),
  });
}

describe('the README sub-agent walkthrough, as written', () => {
  it('the janitor asks through the demo run; the inbox lists it once; the approval reaches the child; the demo answers', async () => {
    expect(curls.map((step) => step.path)).toEqual([
      '/v1/runs',
      '/v1/inbox',
      '/v1/runs/run-2/decision',
      '/v1/runs/run-2/events',
    ]);
    const [start, inbox, decide, events] = curls;
    const first = await readSse(await send(start));
    expect(first.events.at(-1)).toMatchObject({ type: 'run_finish', status: 'waiting' });
    expect(String(first.ids.at(-1))).toBe(events?.lastEventId);
    const suspended = first.events.find((event) => event.type === 'tool_call_suspended');
    expect(suspended?.ticket.suspension.nested).toMatchObject({
      toolName: 'delete_file',
      arguments: { path: '/tmp/report.txt' },
      agentPath: ['demo', 'janitor'],
    });
    // the ids the README shows are the ones the server derives
    expect(decide?.body).toContain(`"ticketId":"${suspended?.ticket.suspension.id}"`);
    const started = first.events.find((event) => event.type === 'subagent_start');
    expect(section).toContain(
      `id: ${started?.seq}\ndata: {"type":"subagent_start","toolCallId":"${started?.toolCallId}","childRunId":"${started?.childRunId}"`,
    );

    const listed = await (await send(inbox)).json();
    expect(listed.items.map((item: any) => item.runId)).toEqual(['run-2']);
    expect(listed.items[0].tickets[0].nested.agentPath).toEqual(['demo', 'janitor']);

    expect((await (await send(decide)).json()).receipts[0].status).toBe('accepted');
    const rest = await readSse(await send(events));
    const finish = rest.events.at(-1);
    expect(finish).toMatchObject({
      type: 'run_finish',
      status: 'done',
      response: 'The janitor deleted /tmp/report.txt.',
    });
    expect(section).toContain(`id: ${rest.ids.at(-1)}  {"type":"run_finish"`);
    expect(section).toContain(`"response":"${finish?.response}"`);
    const done = rest.events.find((event) => event.type === 'tool_call_done');
    expect(section).toContain(
      `id: ${done?.seq}  {"type":"tool_call_done","toolCallId":"${done?.toolCallId}"`,
    );
  });
});
