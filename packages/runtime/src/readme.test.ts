import { type Plugin, defineTool } from '@awaken/contract';
import { createMemoryThreadRunStore } from '@awaken/store-memory';
import { createScriptedModel } from '@awaken/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgentRuntime } from './create-agent-runtime';

describe('README example', () => {
  it('resumes a tool that needs approval hot and cold', async () => {
    let deletions = 0;
    const deleteFile = defineTool({
      name: 'delete_file',
      description: 'Deletes a file.',
      parameters: z.object({ path: z.string() }),
      execute: ({ path }) => {
        deletions += 1;
        return { deleted: path };
      },
    });
    const model = createScriptedModel((request) =>
      request.messages.at(-1)?.role === 'user'
        ? { toolCalls: [{ name: 'delete_file', arguments: { path: '/tmp/x' } }] }
        : { text: 'Deleted.' },
    );
    // --- the README's example, verbatim apart from formatting ---
    const approval: Plugin = {
      id: 'approval',
      hooks: {
        toolGate: (c) =>
          c.resume
            ? undefined
            : {
                type: 'suspend',
                suspension: {
                  id: `ok_${c.call.id}`,
                  action: 'approve',
                  message: 'Delete?',
                  parameters: c.call.arguments,
                },
              },
      },
    };
    const agents = [{ id: 'ops', model, tools: [deleteFile], plugins: [approval] }];
    const store = createMemoryThreadRunStore();
    const runtime = createAgentRuntime({ agents, store });
    const ok = (toolCallId: string, decisionId: string) => ({
      toolCallId,
      decisionId,
      action: 'resume' as const,
      result: true,
      updatedAt: Date.now(),
    });
    const hot = runtime.run({ agentId: 'ops', input: 'delete /tmp/a', onSuspend: 'wait' });
    for await (const event of hot)
      if (event.type === 'tool_call_suspended') await hot.decide(ok(event.toolCallId, 'd1'));
    const waiting = await runtime.runToCompletion({ agentId: 'ops', input: 'delete /tmp/b' });
    const ticket = waiting.waiting!.tickets[0]!;
    const done = await createAgentRuntime({ agents, store }).resumeRun(waiting.runId, {
      decisions: [ok(ticket.toolCallId, 'd2')],
    }).result;
    // ---
    expect(await hot.result).toMatchObject({ status: 'done', response: 'Deleted.' });
    expect(waiting.status).toBe('waiting');
    expect(done).toMatchObject({ status: 'done', response: 'Deleted.' });
    expect(deletions).toBe(2);
  });
});
