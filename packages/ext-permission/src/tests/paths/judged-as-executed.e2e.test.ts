import { approve, defineTool } from '@awaken/contract';
import { createAgentRuntime } from '@awaken/runtime';
import { createMemoryThreadRunStore } from '@awaken/store-memory';
import { type ScriptedTurn, countExecutions, createScriptedModel } from '@awaken/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createPermissionPlugin } from '../../create-permission-plugin';

/**
 * The rules must judge the arguments the tool runs with. A tool whose schema normalises its input
 * (`z.string().trim()`, a common zod idiom) receives a different path than the one written in the
 * call: the deny rule must see that one, not the raw text around it.
 */
function setup(turns: ScriptedTurn[]) {
  const deleteFile = countExecutions(
    defineTool({
      name: 'delete_file',
      description: 'deletes a file',
      parameters: z.object({ path: z.string().trim() }),
      execute: ({ path }) => ({ deleted: path }),
    }),
  );
  const runtime = createAgentRuntime({
    agents: [
      {
        id: 'agent',
        tools: [deleteFile.tool],
        plugins: [
          createPermissionPlugin({
            defaultBehavior: 'ask',
            rules: [
              { tool: 'delete_file(/etc/**)', behavior: 'deny' },
              { tool: 'delete_file(/tmp/**)', behavior: 'allow' },
            ],
          }),
        ],
      },
    ],
    stores: { threadRuns: createMemoryThreadRunStore() },
    model: createScriptedModel(turns),
  });
  return { runtime, deleteFile };
}

describe('rules judge the arguments as the tool receives them', () => {
  it.each([' /etc/passwd', '/etc/passwd\n', '\t/tmp/../etc/passwd '])(
    'a deny rule on /etc/** refuses the model call %j, which the tool would run on a path under /etc',
    async (path) => {
      const { runtime, deleteFile } = setup([
        { toolCalls: [{ id: 'c1', name: 'delete_file', arguments: { path } }] },
        { text: 'ok' },
      ]);
      const result = await runtime.runToCompletion({ agentId: 'agent', input: 'go' });
      // asked (a ticket) would already be wrong only if approved; running it unasked is the break
      if (result.waiting) {
        const [ticket] = result.waiting.tickets;
        await runtime.resumeRun(result.runId, { decisions: [approve(ticket!)] }).result;
      }
      expect(deleteFile.count()).toBe(0);
    },
  );

  it('an edited argument that trims to a path under /etc is refused after approval', async () => {
    const { runtime, deleteFile } = setup([
      { toolCalls: [{ id: 'c1', name: 'delete_file', arguments: { path: '/home/x' } }] },
      { text: 'ok' },
    ]);
    const first = await runtime.runToCompletion({ agentId: 'agent', input: 'go' });
    const [ticket] = first.waiting!.tickets;
    await runtime.resumeRun(first.runId, {
      decisions: [approve(ticket!, { editedArguments: { path: '  /etc/shadow' } })],
    }).result;
    expect(deleteFile.count()).toBe(0);
  });
});
