import {
  type RunControlInbox,
  type RunEventLog,
  type ThreadRunStore,
  decisionControl,
  defineTool,
} from '@awaken/contract';
import {
  createMemoryRunControlInbox,
  createMemoryRunEventLog,
  createMemoryThreadRunStore,
} from '@awaken/store-memory';
import { createScriptedModel } from '@awaken/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgentRuntime } from '../../create-agent-runtime';
import { approvalPlugin } from '../../../test-support/approval';
import { approve } from '../../../test-support/harness';
import { type MortalProcess, mortal } from '../../../test-support/mortal';
import { callsThenAnswer } from '../../../test-support/shared-stores';

/** Memory stores on a manual clock, and runtimes standing for processes (a dead one runs nothing). */
function world() {
  let time = 1_000_000;
  const clock = { now: () => time, advance: (ms: number) => (time += ms) };
  const store = createMemoryThreadRunStore({ now: clock.now });
  const eventLog = createMemoryRunEventLog({ now: clock.now });
  const inbox = createMemoryRunControlInbox();
  const executions: string[] = [];
  const danger = (process: MortalProcess) =>
    defineTool({
      name: 'danger',
      description: 'approval-gated',
      parameters: z.object({}).passthrough(),
      async execute(_args, context) {
        if (process.dead) await new Promise(() => {});
        executions.push(context.toolCallId);
        return { approval: context.resume?.result ?? null };
      },
    });
  const runtime = (
    stores: { store: ThreadRunStore; eventLog: RunEventLog; inbox: RunControlInbox },
    process: MortalProcess = { dead: false },
  ) =>
    createAgentRuntime({
      agents: [
        {
          id: 'agent',
          model: createScriptedModel(
            callsThenAnswer([
              { id: 'a', name: 'danger' },
              { id: 'b', name: 'danger' },
            ]),
          ),
          tools: [danger(process)],
          plugins: [approvalPlugin(['danger'])],
          toolExecution: 'parallel',
        },
      ],
      stores: { threadRuns: stores.store, eventLog: stores.eventLog, inbox: stores.inbox },
      runLease: { leaseMs: 1_000 },
    });
  const count = (id: string) => executions.filter((executed) => executed === id).length;
  const toolResults = async (runId: string) => {
    const threadId = (await store.getRun(runId))?.threadId ?? '';
    return (await store.readMessages(threadId)).flatMap((record) =>
      record.message.role === 'tool' ? [record.message] : [],
    );
  };
  return { clock, store, eventLog, inbox, count, toolResults, runtime };
}

describe('decisions in the inbox are never lost', () => {
  it('a decision that arrived after the peek survives a process that dies right after its drain', async () => {
    const w = world();
    const process: MortalProcess = { dead: false };
    const inboxOfA = mortal(w.inbox, process);
    // right when A removes what it read, the decision for b arrives; A dies just after that drain
    const drainingInbox: RunControlInbox = Object.assign(Object.create(inboxOfA) as RunControlInbox, {
      async remove(runId: string, ids: readonly string[]) {
        await w.inbox.put(runId, decisionControl(approve('b', { for: 'b' })));
        await inboxOfA.remove(runId, ids);
        process.dead = true;
      },
    });
    const a = w.runtime(
      { store: mortal(w.store, process), eventLog: mortal(w.eventLog, process), inbox: drainingInbox },
      process,
    );
    const live = a.run({ agentId: 'agent', runId: 'r', input: 'go', onSuspend: 'wait' });
    live.result.catch(() => {});
    await expect.poll(async () => (await w.store.getRun('r'))?.status).toBe('waiting');
    await w.inbox.put('r', decisionControl(approve('a', { for: 'a' })));
    await expect.poll(() => process.dead).toBe(true);

    w.clock.advance(5_000); // A's lease lapses: it renews no more
    const b = w.runtime({ store: w.store, eventLog: w.eventLog, inbox: w.inbox });
    const result = await b.resumeRun('r').result;
    expect(result).toMatchObject({ status: 'done', termination: { type: 'natural_end' } });
    expect([w.count('a'), w.count('b')]).toEqual([1, 1]);
    expect((await w.toolResults('r')).map((message) => [message.toolCallId, message.content])).toEqual([
      ['a', { approval: { for: 'a' } }],
      ['b', { approval: { for: 'b' } }],
    ]);
    expect(await w.inbox.peek('r')).toEqual([]);
  });

  it('a decision lost before it was recorded can be sent again and is applied once', async () => {
    const w = world();
    const runtime = w.runtime({ store: w.store, eventLog: w.eventLog, inbox: w.inbox });
    const waiting = await runtime.runToCompletion({ agentId: 'agent', runId: 'r', input: 'go' });
    expect(waiting.waiting?.tickets).toHaveLength(2);
    const first = approve('a', { for: 'a' }, 'd_a');
    expect(await w.inbox.put('r', decisionControl(first))).toBe('stored');
    // the inbox loses it (say, a Redis failover dropped the last write) before any run recorded it
    await w.inbox.remove('r', ['d_a']);

    const resent = runtime.resumeRun('r', { decisions: [first] });
    expect(await resent.receipts).toMatchObject([{ decisionId: 'd_a', status: 'accepted' }]);
    expect(await resent.result).toMatchObject({ status: 'waiting' });
    expect(w.count('a')).toBe(1);
    // once recorded, the same decision again is a duplicate and never runs the tool twice
    const again = runtime.resumeRun('r', { decisions: [first, approve('b', {}, 'd_b')] });
    expect(await again.receipts).toMatchObject([{ status: 'duplicate' }, { status: 'accepted' }]);
    expect(await again.result).toMatchObject({ status: 'done' });
    await w.inbox.put('r', decisionControl(first));
    expect(await runtime.resumeRun('r').result).toMatchObject({ status: 'done' });
    expect([w.count('a'), w.count('b')]).toEqual([1, 1]);
  });
});
