import {
  createMemoryRunControlInbox,
  createMemoryRunEventLog,
  createMemoryThreadRunStore,
} from '@awaken/store-memory';
import { createControllableTool, createScriptedModel } from '@awaken/testing';
import { describe, expect, it } from 'vitest';
import { createAgentRuntime } from '../../create-agent-runtime';
import { approvalPlugin } from '../../../test-support/approval';
import { approve, historyIsValid } from '../../../test-support/harness';
import { callsThenAnswer } from '../../../test-support/shared-stores';

/** Two approval-gated calls of a controllable tool, parallel executor, shared memory stores + inbox. */
function setup() {
  const store = createMemoryThreadRunStore();
  const eventLog = createMemoryRunEventLog();
  const controlInbox = createMemoryRunControlInbox();
  const work = createControllableTool('work');
  const runtime = () =>
    createAgentRuntime({
      agents: [
        {
          id: 'agent',
          model: createScriptedModel(
            callsThenAnswer([
              { id: 'a', name: 'work' },
              { id: 'b', name: 'work' },
            ]),
          ),
          tools: [work.tool],
          plugins: [approvalPlugin(['work'])],
          toolExecution: 'parallel',
        },
      ],
      stores: { threadRuns: store, eventLog, inbox: controlInbox },
    });
  return { store, eventLog, controlInbox, work, runtime };
}

describe('detach racing a decision (with a control inbox)', () => {
  it('a decision accepted after detach() is applied exactly once by the next activation', async () => {
    const w = setup();
    const handle = w
      .runtime()
      .run({ agentId: 'agent', runId: 'r', threadId: 't', input: 'go', onSuspend: 'wait' });
    await expect.poll(async () => (await w.store.getRun('r'))?.status).toBe('waiting');
    handle.detach('deploying');
    const receipts = await handle.decide(approve('a'));
    expect(receipts).toEqual([expect.objectContaining({ status: 'accepted' })]);
    await expect(handle.result).rejects.toMatchObject({ code: 'detached' });
    // it is durable: the inbox holds it for whoever continues the run
    expect((await w.controlInbox.peek('r')).map((control) => control.id)).toEqual(['d_a']);

    const resumed = w.runtime().resumeRun('r');
    await w.work.started('a');
    w.work.release('a', { done: 'a' });
    const waiting = await resumed.result;
    expect(waiting.status).toBe('waiting');
    expect(w.work.executions('a')).toBe(1);
    expect(w.work.executions('b')).toBe(0);
    expect(await w.controlInbox.peek('r')).toEqual([]);

    // re-sending the applied decision is a duplicate; b's approval finishes the run
    const last = w.runtime().resumeRun('r', { decisions: [approve('a'), approve('b')] });
    expect((await last.receipts).map((receipt) => receipt.status)).toEqual(['duplicate', 'accepted']);
    await w.work.started('b');
    w.work.release('b', { done: 'b' });
    expect(await last.result).toMatchObject({ status: 'done', termination: { type: 'natural_end' } });
    expect([w.work.executions('a'), w.work.executions('b')]).toEqual([1, 1]);
    const history = (await w.store.readMessages('t')).map((record) => record.message);
    expect(historyIsValid(history)).toBe(true);
  });

  it('ids named like Object.prototype members are ordinary ids through decide, inbox and cold resume', async () => {
    const w = setup();
    const handle = w
      .runtime()
      .run({ agentId: 'agent', runId: 'r', threadId: 't', input: 'go', onSuspend: 'wait' });
    await expect.poll(async () => (await w.store.getRun('r'))?.status).toBe('waiting');
    const payload = JSON.parse('{"__proto__":{"polluted":true},"constructor":"c","approved":true}');
    const receipts = await handle.decide([
      approve('a', payload, '__proto__'),
      approve('b', { approved: true }, 'constructor'),
      approve('a', { approved: true }, 'hasOwnProperty'),
    ]);
    expect(receipts.map((receipt) => receipt.status)).toEqual(['accepted', 'accepted', 'rejected']);
    await Promise.all([w.work.started('a'), w.work.started('b')]);
    w.work.release('a', { done: 'a' });
    w.work.release('b', { done: 'b' });
    expect(await handle.result).toMatchObject({ status: 'done', termination: { type: 'natural_end' } });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    const record = await w.store.getRun('r');
    const bookkeeping = JSON.stringify(record?.state);
    expect(bookkeeping).toContain('"__proto__"');
    expect(bookkeeping).toContain('"constructor"');
    // a cold resume of the finished run re-applies nothing: the decision was applied, a duplicate
    const again = w.runtime().resumeRun('r', { decisions: [approve('a', payload, '__proto__')] });
    expect((await again.receipts).map((receipt) => receipt.status)).toEqual(['duplicate']);
    expect([w.work.executions('a'), w.work.executions('b')]).toEqual([1, 1]);
  });
});
