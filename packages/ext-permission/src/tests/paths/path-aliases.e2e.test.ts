import { type Message, approve, defineTool } from '@awaken/contract';
import { createAgentRuntime } from '@awaken/runtime';
import { createMemoryThreadRunStore } from '@awaken/store-memory';
import { type ScriptedTurn, countExecutions, createScriptedModel } from '@awaken/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createPermissionPlugin } from '../../create-permission-plugin';

/** Spellings of a path under `/etc` that a literal match of `/etc/**` misses. */
const ALIASES = ['/tmp/../etc/passwd', '//etc/passwd', '/./etc/passwd', '/etc'] as const;

function setup(turns: ScriptedTurn[]) {
  const deleteFile = countExecutions(
    defineTool({
      name: 'delete_file',
      description: 'deletes a file',
      parameters: z.object({ path: z.string() }),
      execute: ({ path }) => ({ deleted: path }),
    }),
  );
  const model = createScriptedModel(turns);
  const runtime = createAgentRuntime({
    agents: [
      {
        id: 'agent',
        tools: [deleteFile.tool],
        plugins: [
          createPermissionPlugin({
            defaultBehavior: 'ask',
            rules: [{ tool: 'delete_file(/etc/**)', behavior: 'deny' }],
          }),
        ],
      },
    ],
    stores: { threadRuns: createMemoryThreadRunStore() },
    model,
  });
  return { runtime, model, deleteFile };
}

function toolText(messages: readonly Message[], toolCallId: string): string {
  const message = messages.find((entry) => entry.role === 'tool' && entry.toolCallId === toolCallId);
  return JSON.stringify(message);
}

describe('a deny rule on /etc/** cannot be spelled around', () => {
  it.each(ALIASES)('refuses the model call delete_file %j by the rule, without asking', async (path) => {
    const { runtime, model, deleteFile } = setup([
      { toolCalls: [{ id: 'c1', name: 'delete_file', arguments: { path } }] },
      { text: 'ok' },
    ]);
    const result = await runtime.runToCompletion({ agentId: 'agent', input: 'go' });
    expect(result.status).toBe('done');
    expect(result.waiting).toBeUndefined();
    expect(deleteFile.count()).toBe(0);
    expect(toolText(model.requests[1]!.messages, 'c1')).toContain(
      'Permission denied: denied by permission rule `delete_file(/etc/**)`',
    );
  });

  it.each(ALIASES)(
    'refuses an approval whose edited arguments are %j: the tool never runs, the model is told',
    async (path) => {
      const { runtime, model, deleteFile } = setup([
        { toolCalls: [{ id: 'c1', name: 'delete_file', arguments: { path: '/tmp/report.txt' } }] },
        { text: 'ok' },
      ]);
      const first = await runtime.runToCompletion({ agentId: 'agent', input: 'go' });
      const [ticket] = first.waiting!.tickets;
      const resumed = runtime.resumeRun(first.runId, {
        decisions: [approve(ticket!, { editedArguments: { path } })],
      });
      expect((await resumed.receipts).map((receipt) => receipt.status)).toEqual(['accepted']);
      expect(await resumed.result).toMatchObject({ status: 'done', response: 'ok' });
      expect(deleteFile.count()).toBe(0);
      expect(toolText(model.requests[1]!.messages, 'c1')).toContain(
        'Permission denied: denied by permission rule `delete_file(/etc/**)`',
      );
    },
  );

  it('refuses an edit sent as a JSON string that parses to an alias', async () => {
    const { runtime, deleteFile } = setup([
      { toolCalls: [{ id: 'c1', name: 'delete_file', arguments: { path: '/tmp/report.txt' } }] },
      { text: 'ok' },
    ]);
    const first = await runtime.runToCompletion({ agentId: 'agent', input: 'go' });
    const [ticket] = first.waiting!.tickets;
    const done = await runtime.resumeRun(first.runId, {
      decisions: [approve(ticket!, { editedArguments: '{"path":"/tmp/../etc/passwd"}' })],
    }).result;
    expect(done.status).toBe('done');
    expect(deleteFile.count()).toBe(0);
  });
});
