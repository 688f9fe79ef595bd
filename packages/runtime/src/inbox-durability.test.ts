import { defineTool } from '@awaken/contract';
import { createMemoryDecisionInbox } from '@awaken/store-memory';
import { createDeferred, createScriptedModel } from '@awaken/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgentRuntime } from './create-agent-runtime';
import { approvalPlugin } from '../test-support/approval';
import { approve, until } from '../test-support/harness';
import { createTestStore } from '../test-support/recording-store';

const turns = () => [{ toolCalls: [{ id: 'a', name: 'danger', arguments: {} }] }, { text: 'done' }];

describe('decisions taken from the inbox', () => {
  it('survive a process that dies after taking one: a fresh runtime on the same stores replays the call', async () => {
    const store = createTestStore();
    const decisionInbox = createMemoryDecisionInbox();
    const executions: string[] = [];
    const hang = createDeferred<void>();
    // The first process's tool never returns: the process "dies" while the replay executes.
    const runtimeFor = (label: string, body: () => Promise<void>, script = turns()) =>
      createAgentRuntime({
        agents: [
          {
            id: 'agent',
            model: createScriptedModel(script),
            tools: [
              defineTool({
                name: 'danger',
                description: 'needs approval',
                parameters: z.object({}),
                async execute(_args, context) {
                  executions.push(`${label}:${context.toolCallId}`);
                  await body();
                  return { ran: label, approval: context.resume?.result };
                },
              }),
            ],
            plugins: [approvalPlugin(['danger'])],
          },
        ],
        stores: { threadRuns: store, inbox: decisionInbox },
      });

    const first = runtimeFor('first', () => hang.promise);
    void first.run({ agentId: 'agent', runId: 'r', input: 'go', onSuspend: 'wait' }).result;
    await until(async () => (await store.getRun('r'))?.status === 'waiting');
    expect(await decisionInbox.put('r', approve('a', { ok: 1 }))).toBe('stored');
    await until(() => executions.length === 1);
    expect(await decisionInbox.peek('r')).toEqual([]);

    // The second process: its model answers only the final turn (the first turn is committed).
    const second = runtimeFor('second', async () => {}, [{ text: 'done' }]);
    const result = await second.resumeRun('r').result;
    expect(result).toMatchObject({ status: 'done', response: 'done' });
    expect(executions).toEqual(['first:a', 'second:a']);
    const messages = (await store.readMessages((await store.getRun('r'))?.threadId ?? '')).map(
      (record) => record.message,
    );
    expect(messages.find((message) => message.role === 'tool')).toMatchObject({
      toolCallId: 'a',
      content: { ran: 'second', approval: { ok: 1 } },
    });
  });
});
