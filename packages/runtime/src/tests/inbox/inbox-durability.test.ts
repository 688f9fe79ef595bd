import { decisionControl, defineTool } from '@awaken/contract';
import { createMemoryRunControlInbox, createMemoryThreadRunStore } from '@awaken/store-memory';
import { createDeferred, createScriptedModel } from '@awaken/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgentRuntime } from '../../create-agent-runtime';
import { approvalPlugin } from '../../../test-support/approval';
import { approve, until } from '../../../test-support/harness';
import { mortal } from '../../../test-support/mortal';

const turns = () => [{ toolCalls: [{ id: 'a', name: 'danger', arguments: {} }] }, { text: 'done' }];

describe('decisions taken from the inbox', () => {
  it('survive a process that dies after taking one: a fresh runtime on the same stores replays the call', async () => {
    let time = 1_000_000;
    const store = createMemoryThreadRunStore({ now: () => time });
    const controlInbox = createMemoryRunControlInbox();
    const executions: string[] = [];
    const hang = createDeferred<void>();
    const process = { dead: false };
    const runtimeFor = (label: string, body: () => Promise<void>, script = turns(), dying = false) =>
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
        stores: {
          threadRuns: dying ? mortal(store, process) : store,
          inbox: dying ? mortal(controlInbox, process) : controlInbox,
        },
        runLease: { leaseMs: 1_000 },
      });

    // The first process's tool never returns: the process "dies" while the replay executes.
    const first = runtimeFor('first', () => hang.promise, turns(), true);
    void first.run({ agentId: 'agent', runId: 'r', input: 'go', onSuspend: 'wait' }).result;
    await until(async () => (await store.getRun('r'))?.status === 'waiting');
    expect(await controlInbox.put('r', decisionControl(approve('a', { ok: 1 })))).toBe('stored');
    await until(() => executions.length === 1);
    // the decision was recorded by a checkpoint before the inbox let go of it
    expect(await controlInbox.peek('r')).toEqual([]);
    process.dead = true;
    time += 5_000; // its lease lapses: a dead process renews nothing

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
