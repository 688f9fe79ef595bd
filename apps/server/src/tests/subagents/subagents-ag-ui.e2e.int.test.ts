import { randomUUID } from 'node:crypto';
import { buildResumeArray } from '@ag-ui/client';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, inject, it, vi } from 'vitest';
import { assistantText, createAgent, lastRun, wireProblems } from '../../../test-support/ag-ui-client';
import { type AppProcess, startAppProcess } from '../../../test-support/app-process';
import { tenantSchema } from '../../create-tenant-stores';
import { JANITOR_PROMPT, PARALLEL_PROMPT, deletions, inboxItems, runView } from './subagent-helpers';

const schema = `e2e_sub_${randomUUID().replaceAll('-', '').slice(0, 12)}`;
let app: AppProcess;
let warn: ReturnType<typeof vi.spyOn>;
beforeAll(async () => {
  app = await startAppProcess({
    DATABASE_URL: inject('postgresUrl'),
    AWAKEN_PG_SCHEMA: schema,
    AWAKEN_DEMO_DELAY_MS: '0',
  });
});
beforeEach(() => {
  warn = vi.spyOn(console, 'warn');
});
// every stream was valid AG-UI 1.0 on the wire (its verifier passed), with no client warning
afterEach(async () => {
  expect(await wireProblems()).toEqual([]);
  expect(warn.mock.calls).toEqual([]);
  warn.mockRestore();
});
afterAll(async () => {
  await app?.stop();
  const admin = new pg.Client({ connectionString: inject('postgresUrl') });
  await admin.connect();
  await admin.query(`DROP SCHEMA IF EXISTS "${tenantSchema(schema, 'default')}" CASCADE`);
  await admin.end();
});

const userMessage = (content: string) => ({ id: `u-${randomUUID()}`, role: 'user' as const, content });
const types = (events: ReadonlyArray<Record<string, any>>): string[] =>
  events.map((event) => String(event.type));

async function asked(prompt: string) {
  const client = createAgent({ url: app.url, threadId: `t-${randomUUID()}` });
  client.agent.addMessage(userMessage(prompt));
  await client.agent.runAgent();
  return client;
}

describe('a sub-agent asks, through @ag-ui/client HttpAgent on PostgreSQL', () => {
  it('SUBAGENT_STARTED/FINISHED around the child; its question is an interrupt with subagentRunId and the inner call; approved with edits, the child deletes the edited path once', async () => {
    const { agent, events } = await asked(JANITOR_PROMPT);
    const first = lastRun(events) as Array<Record<string, any>>;
    const started = first.find((event) => event.type === 'SUBAGENT_STARTED');
    const call = first.find((event) => event.type === 'TOOL_CALL_START');
    expect(call).toMatchObject({ toolCallName: 'janitor' });
    expect(started).toMatchObject({ name: 'janitor', parentToolCallId: call?.toolCallId });
    expect(first.find((event) => event.type === 'SUBAGENT_FINISHED')).toEqual(
      expect.objectContaining({ subagentRunId: started?.subagentRunId, outcome: { type: 'suspended' } }),
    );
    expect(types(first).slice(-1)).toEqual(['RUN_FINISHED']);
    const [interrupt] = agent.pendingInterrupts;
    expect(interrupt).toMatchObject({
      reason: 'tool_call',
      toolCallId: call?.toolCallId,
      subagentRunId: started?.subagentRunId,
      message: expect.stringMatching(/^janitor › delete_file: /),
      responseSchema: { properties: { approved: { type: 'boolean' }, editedArgs: { type: 'object' } } },
      metadata: {
        toolName: 'janitor',
        nested: {
          toolName: 'delete_file',
          arguments: { path: '/tmp/report.txt' },
          agentPath: ['demo', 'janitor'],
        },
      },
    });

    await agent.runAgent({
      resume: buildResumeArray(agent.pendingInterrupts, {
        [interrupt!.id]: {
          status: 'resolved',
          payload: { approved: true, editedArgs: { path: '/tmp/other.txt' } },
        },
      }),
    });
    const second = lastRun(events) as Array<Record<string, any>>;
    expect(types(second).filter((type) => type.startsWith('SUBAGENT_'))).toEqual([
      'SUBAGENT_STARTED',
      'SUBAGENT_FINISHED',
    ]);
    expect(second.find((event) => event.type === 'SUBAGENT_FINISHED')).toMatchObject({
      subagentRunId: started?.subagentRunId,
      outcome: { type: 'success' },
    });
    expect(second.at(-1)).toMatchObject({ type: 'RUN_FINISHED', outcome: { type: 'success' } });
    expect(agent.pendingInterrupts).toEqual([]);
    expect(assistantText(agent.messages)).toBe('I will ask the janitor. The janitor deleted /tmp/other.txt.');
    expect(await deletions(app, started?.subagentRunId)).toEqual(['succeeded']);
  });

  it('an edit the inherited rules deny (/etc/**) is refused in the child, which deletes nothing', async () => {
    const { agent, events } = await asked(JANITOR_PROMPT);
    const [interrupt] = agent.pendingInterrupts;
    await agent.runAgent({
      resume: buildResumeArray(agent.pendingInterrupts, {
        [interrupt!.id]: {
          status: 'resolved',
          payload: { approved: true, editedArgs: { path: '/etc/passwd' } },
        },
      }),
    });
    expect(assistantText(agent.messages)).toMatch(
      /^I will ask the janitor\. The janitor did not delete \/tmp\/report\.txt: "I did not run delete_file: .*denied/,
    );
    expect(await deletions(app, interrupt!.subagentRunId!)).not.toContain('succeeded');
    expect(lastRun(events).at(-1)).toMatchObject({ type: 'RUN_FINISHED', outcome: { type: 'success' } });
  });

  it('deny (status cancelled) reaches the child: it never deletes and no child is left waiting', async () => {
    const { agent } = await asked(JANITOR_PROMPT);
    const [interrupt] = agent.pendingInterrupts;
    const child = interrupt!.subagentRunId!;
    await agent.runAgent({
      resume: buildResumeArray(agent.pendingInterrupts, { [interrupt!.id]: { status: 'cancelled' } }),
    });
    expect(assistantText(agent.messages)).toMatch(
      /^I will ask the janitor\. The janitor did not delete \/tmp\/report\.txt/,
    );
    expect(await deletions(app, child)).toEqual(['cancelled']);
    expect((await runView(app, child)).status).toBe('done');
    expect((await inboxItems(app)).map((item) => item.runId)).not.toContain(child);
  });

  it('two sub-agents in parallel: two interrupts, one per child; one resume answers both', async () => {
    const { agent, events } = await asked(PARALLEL_PROMPT);
    const first = lastRun(events) as Array<Record<string, any>>;
    expect(first.filter((event) => event.type === 'SUBAGENT_STARTED').map((event) => event.name)).toEqual([
      'janitor',
      'archivist',
    ]);
    const [janitor, archivist] = agent.pendingInterrupts;
    expect([janitor, archivist].map((interrupt) => interrupt?.metadata?.nested)).toMatchObject([
      { toolName: 'delete_file', arguments: { path: '/tmp/a.txt' }, agentPath: ['demo', 'janitor'] },
      { toolName: 'delete_file', arguments: { path: '/tmp/b.txt' }, agentPath: ['demo', 'archivist'] },
    ]);
    await agent.runAgent({
      resume: buildResumeArray(agent.pendingInterrupts, {
        [janitor!.id]: { status: 'resolved', payload: { approved: false, reason: 'not a' } },
        [archivist!.id]: { status: 'resolved', payload: { approved: true } },
      }),
    });
    expect(assistantText(agent.messages)).toBe(
      'I will ask the janitor and the archivist. The janitor did not delete /tmp/a.txt: "I did not run delete_file: not a." The archivist deleted /tmp/b.txt.',
    );
    expect(await deletions(app, janitor!.subagentRunId!)).toEqual(['cancelled']);
    expect(await deletions(app, archivist!.subagentRunId!)).toEqual(['succeeded']);
  });
});
