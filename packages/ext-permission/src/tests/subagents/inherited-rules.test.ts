import { type InferenceRequest, type Plugin, approve, defineTool } from '@awaken/contract';
import { agentTool, createAgentRuntime } from '@awaken/runtime';
import { createMemoryThreadRunStore } from '@awaken/store-memory';
import { countExecutions, createScriptedModel } from '@awaken/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createPermissionPlugin } from '../../create-permission-plugin';
import type { PermissionConfigInput } from '../../permission-config';

const deleteFile = () =>
  countExecutions(
    defineTool({
      name: 'delete_file',
      description: 'deletes a file',
      parameters: z.object({ path: z.string() }),
      execute: ({ path }) => ({ deleted: path }),
    }),
  );

/** The last message of a request, when it is a tool result. */
const lastResult = (request: InferenceRequest) => {
  const last = request.messages.at(-1);
  return last?.role === 'tool' ? last : undefined;
};

/**
 * `assistant` delegates "delete <path>" to `janitor`, which calls `delete_file` once and reports the
 * outcome; the parent's rules are `parent`, the janitor's own plugins `janitorPlugins`.
 */
function setup(parent: PermissionConfigInput, janitorPlugins: Plugin[] = [], path = '/tmp/report.txt') {
  const tool = deleteFile();
  const janitorTools = { seen: [] as string[][] };
  const janitor = createScriptedModel((request) => {
    janitorTools.seen.push(request.tools.map((entry) => entry.name));
    const result = lastResult(request);
    if (!result) return { toolCalls: [{ id: 'del', name: 'delete_file', arguments: { path } }] };
    return { text: `${result.outcome}: ${JSON.stringify(result.content)}` };
  });
  const assistant = createScriptedModel((request) => {
    const result = lastResult(request);
    if (!result)
      return { toolCalls: [{ id: 'delegate', name: 'janitor', arguments: { task: `delete ${path}` } }] };
    return { text: `janitor says ${JSON.stringify(result.content)}` };
  });
  const runtime = createAgentRuntime({
    agents: [
      {
        id: 'assistant',
        model: assistant,
        tools: [agentTool('janitor')],
        plugins: [createPermissionPlugin(parent)],
      },
      { id: 'janitor', model: janitor, tools: [tool.tool], plugins: janitorPlugins },
    ],
    stores: { threadRuns: createMemoryThreadRunStore() },
  });
  return { runtime, deletes: tool.count, janitorTools };
}

describe('a sub-agent runs under its parent’s permission rules', () => {
  it("cannot loosen the parent's deny, even with an allow rule of its own", async () => {
    const { runtime, deletes, janitorTools } = setup(
      { defaultBehavior: 'allow', rules: [{ tool: 'delete_file', behavior: 'deny' }] },
      [
        createPermissionPlugin({
          defaultBehavior: 'allow',
          rules: [{ tool: 'delete_file', behavior: 'allow' }],
        }),
      ],
    );
    const done = await runtime.runToCompletion({ agentId: 'assistant', input: 'clean up' });
    expect(done.status).toBe('done');
    expect(done.response).toContain('Permission denied');
    expect(deletes()).toBe(0);
    // the inherited rule also hides the tool from the child's model
    expect(janitorTools.seen[0]).toEqual([]);
  });

  it("a parent's ask reaches the human through the nesting, where the child itself would allow", async () => {
    const { runtime, deletes } = setup(
      { defaultBehavior: 'allow', rules: [{ tool: 'delete_file', behavior: 'ask' }] },
      [createPermissionPlugin({ defaultBehavior: 'allow' })],
    );
    const first = await runtime.runToCompletion({ agentId: 'assistant', input: 'clean up' });
    expect(first.status).toBe('waiting');
    const [ticket] = first.waiting!.tickets;
    expect(ticket).toMatchObject({
      action: 'confirm',
      message: expect.stringMatching(/^janitor › delete_file: Allow tool "delete_file"/),
      nested: { toolName: 'delete_file', arguments: { path: '/tmp/report.txt' } },
    });
    expect(deletes()).toBe(0);
    const done = await runtime.resumeRun(first.runId, { decisions: [approve(ticket!)] }).result;
    expect(done.response).toContain('deleted');
    expect(deletes()).toBe(1);
  });

  it('an edited argument is judged again by the inherited rules in the child', async () => {
    const { runtime, deletes } = setup({
      defaultBehavior: 'allow',
      rules: [
        { tool: 'delete_file', behavior: 'ask' },
        { tool: 'delete_file(path ~ "/etc/**")', behavior: 'deny' },
      ],
    });
    const first = await runtime.runToCompletion({ agentId: 'assistant', input: 'clean up' });
    const [ticket] = first.waiting!.tickets;
    const edited = approve(ticket!, { editedArguments: { path: '/etc/passwd' } });
    const done = await runtime.resumeRun(first.runId, { decisions: [edited] }).result;
    expect(done.status).toBe('done');
    expect(done.response).toContain('Permission denied');
    expect(done.response).toContain('/etc/**');
    expect(deletes()).toBe(0);
  });

  it("may tighten: its own deny wins over the parent's ask, and nobody is asked", async () => {
    const { runtime, deletes } = setup(
      { defaultBehavior: 'allow', rules: [{ tool: 'delete_file', behavior: 'ask' }] },
      [
        createPermissionPlugin({
          defaultBehavior: 'allow',
          rules: [{ tool: 'delete_file', behavior: 'deny' }],
        }),
      ],
    );
    const done = await runtime.runToCompletion({ agentId: 'assistant', input: 'clean up' });
    expect(done.status).toBe('done');
    expect(done.response).toContain('Permission denied');
    expect(deletes()).toBe(0);
  });

  it('with inherit: false the children keep to their own rules', async () => {
    const { runtime, deletes } = setup({
      defaultBehavior: 'allow',
      inherit: false,
      rules: [{ tool: 'delete_file', behavior: 'deny' }],
    });
    const done = await runtime.runToCompletion({ agentId: 'assistant', input: 'clean up' });
    expect(done.response).toContain('succeeded');
    expect(deletes()).toBe(1);
  });
});
