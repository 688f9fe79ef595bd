import { type ToolCallDecision, defineTool } from '@awaken/contract';
import { createAgentRuntime } from '@awaken/runtime';
import { createMemoryThreadRunStore } from '@awaken/store-memory';
import { createScriptedModel } from '@awaken/testing';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createPermissionPlugin } from '../../create-permission-plugin';

/** A `delete_file` tool that records the path of every execution. */
function deleteTool() {
  const deleted: string[] = [];
  const tool = defineTool({
    name: 'delete_file',
    description: 'Deletes a file.',
    parameters: z.object({ path: z.string() }),
    execute: ({ path }) => {
      deleted.push(path);
      return { deleted: path };
    },
  });
  return { tool, deleted };
}

type Step = Array<{ id: string; path: string }>;

/** A runtime whose model plays `steps` (one assistant turn each), then answers `done`. */
function setup(steps: Step[], toolExecution: 'sequential' | 'parallel' = 'sequential') {
  const remove = deleteTool();
  const model = createScriptedModel((request) => {
    const turn = steps[request.messages.filter((message) => message.role === 'assistant').length];
    if (!turn) return { text: 'done' };
    return {
      toolCalls: turn.map((call) => ({ id: call.id, name: 'delete_file', arguments: { path: call.path } })),
    };
  });
  const runtime = createAgentRuntime({
    agents: [
      {
        id: 'agent',
        tools: [remove.tool],
        plugins: [createPermissionPlugin({ defaultBehavior: 'ask' })],
        toolExecution,
      },
    ],
    stores: { threadRuns: createMemoryThreadRunStore() },
    model,
  });
  return { runtime, deleted: remove.deleted };
}

function decide(toolCallId: string, approved: boolean, decisionId: string): ToolCallDecision {
  return { toolCallId, decisionId, action: 'resume', result: { approved }, updatedAt: 1 };
}

describe('approvals are bound to the call instance, not to a reused tool call id', () => {
  it('asks again for a later call that reuses the id of an approved one', async () => {
    const { runtime, deleted } = setup([
      [{ id: 'call_0', path: 'scratch/notes.txt' }],
      [{ id: 'call_0', path: '/etc/passwd' }],
    ]);
    const first = await runtime.runToCompletion({ agentId: 'agent', runId: 'run', input: 'tidy up' });
    expect(first.status).toBe('waiting');
    const second = await runtime.resumeRun('run', { decisions: [decide('call_0', true, 'd1')] }).result;
    expect(deleted).toEqual(['scratch/notes.txt']);
    expect(second.status).toBe('waiting');
    expect(second.waiting?.tickets).toHaveLength(1);
    expect(second.waiting?.tickets[0]).toMatchObject({
      toolCallId: 'call_0',
      arguments: { path: '/etc/passwd' },
    });
    // the second instance has its own ticket: the first approval cannot answer it
    expect(second.waiting?.tickets[0]?.ticketId).not.toBe(first.waiting?.tickets[0]?.ticketId);
  });

  it('executes exactly the approved instances when ids repeat across steps', async () => {
    const ids = fc.constantFrom('call_0', 'call_1', 'call_2');
    const step = fc.uniqueArray(ids, { minLength: 1, maxLength: 3 });
    const scenario = fc.record({
      steps: fc.array(step, { minLength: 1, maxLength: 4 }),
      approvals: fc.array(fc.boolean(), { minLength: 12, maxLength: 12 }),
      parallel: fc.boolean(),
    });
    await fc.assert(
      fc.asyncProperty(scenario, async ({ steps, approvals, parallel }) => {
        const plan: Step[] = steps.map((callIds, index) =>
          callIds.map((id) => ({ id, path: `step${index + 1}/${id}` })),
        );
        const { runtime, deleted } = setup(plan, parallel ? 'parallel' : 'sequential');
        const approved: string[] = [];
        const ticketIds = new Set<string>();
        let asked = 0;
        let result = await runtime.runToCompletion({ agentId: 'agent', runId: 'run', input: 'go' });
        while (result.status === 'waiting') {
          const ticket = result.waiting!.tickets[0]!;
          expect(ticketIds.has(ticket.ticketId)).toBe(false);
          ticketIds.add(ticket.ticketId);
          const yes = approvals[asked % approvals.length]!;
          asked += 1;
          if (yes) approved.push((ticket.arguments as { path: string }).path);
          result = await runtime.resumeRun('run', {
            decisions: [decide(ticket.toolCallId, yes, `d${asked}`)],
          }).result;
        }
        expect(result).toMatchObject({ status: 'done', response: 'done' });
        // every call instance was asked once; only the approved ones ran, each once
        expect(asked).toBe(plan.flat().length);
        expect([...deleted].sort()).toEqual([...approved].sort());
      }),
      { numRuns: 60 },
    );
  });
});
