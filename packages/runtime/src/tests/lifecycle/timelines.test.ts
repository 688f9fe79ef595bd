import type { Plugin } from '@awaken/contract';
import { createControllableTool } from '@awaken/testing';
import { describe, expect, it } from 'vitest';
import { approve, createHarness, statusAlwaysDerived, until } from '../../../test-support/harness';
import type { RunStateSnapshot } from '../../types';

const needsApproval = (ids: string[]): Plugin => ({
  id: 'approval',
  hooks: {
    toolGate: (context) =>
      ids.includes(context.call.id) && !context.resume
        ? {
            type: 'suspend',
            suspension: { id: `t_${context.call.id}`, action: 'approve', message: '?', parameters: {} },
          }
        : undefined,
  },
});

function row(snapshot: RunStateSnapshot): string {
  return `${snapshot.calls.map((call) => call.status).join(' ')} -> ${snapshot.status}`;
}

/** True when `expected` appears in `rows` in order (other rows may sit between). */
function inOrder(rows: string[], expected: string[]): boolean {
  let position = 0;
  for (const current of rows) if (current === expected[position]) position += 1;
  return position === expected.length;
}

function setup() {
  const work = createControllableTool('work');
  const harness = createHarness(
    { tools: [work.tool], plugins: [needsApproval(['a', 'b'])], toolExecution: 'parallel' },
    {
      turns: [
        { toolCalls: ['a', 'b', 'c'].map((id) => ({ id, name: 'work', arguments: {} })) },
        { text: 'finished' },
      ],
    },
  );
  return { work, ...harness };
}

describe('seed 000 timelines', () => {
  it('reproduces the parallel timeline t0–t7 with partial resume', async () => {
    const { work, runtime, snapshots } = setup();
    const handle = runtime.run({ agentId: 'agent', input: 'go', onSuspend: 'wait' });
    await work.started('c');
    expect(row(snapshots.at(-1)!)).toBe('suspended suspended running -> running');
    work.release('c');
    await until(() => row(snapshots.at(-1)!) === 'suspended suspended succeeded -> waiting');
    await handle.decide(approve('a'));
    await work.started('a');
    expect(snapshots.some((snapshot) => row(snapshot) === 'resuming suspended succeeded -> running')).toBe(
      true,
    );
    work.release('a');
    await until(() => row(snapshots.at(-1)!) === 'succeeded suspended succeeded -> waiting');
    await handle.decide(approve('b'));
    await work.started('b');
    work.release('b');
    const result = await handle.result;
    expect(result).toMatchObject({ status: 'done', response: 'finished' });
    expect(
      inOrder(snapshots.map(row), [
        'suspended suspended running -> running',
        'suspended suspended succeeded -> waiting',
        'resuming suspended succeeded -> running',
        'succeeded suspended succeeded -> waiting',
        'succeeded resuming succeeded -> running',
        'succeeded succeeded succeeded -> running',
      ]),
    ).toBe(true);
    expect(statusAlwaysDerived(snapshots)).toBe(true);
    expect([work.executions('a'), work.executions('b'), work.executions('c')]).toEqual([1, 1, 1]);
  });

  it('reproduces the concurrent model t0–t5: a decision replays its call while another still runs', async () => {
    const { work, runtime, snapshots } = setup();
    const handle = runtime.run({ agentId: 'agent', input: 'go', onSuspend: 'wait' });
    await work.started('c');
    await handle.decide(approve('a'));
    await work.started('a');
    expect(row(snapshots.at(-1)!)).toBe('running suspended running -> running');
    work.release('a');
    await until(() => row(snapshots.at(-1)!) === 'succeeded suspended running -> running');
    work.release('c');
    await until(() => row(snapshots.at(-1)!) === 'succeeded suspended succeeded -> waiting');
    await handle.decide(approve('b'));
    await work.started('b');
    work.release('b');
    expect(await handle.result).toMatchObject({ status: 'done' });
    expect(
      inOrder(snapshots.map(row), [
        'suspended suspended running -> running',
        'resuming suspended running -> running',
        'succeeded suspended running -> running',
        'succeeded suspended succeeded -> waiting',
        'succeeded resuming succeeded -> running',
        'succeeded succeeded succeeded -> running',
      ]),
    ).toBe(true);
    expect(statusAlwaysDerived(snapshots)).toBe(true);
  });

  it('sequential executor keeps decisions that arrive during a tool until the post-tool gate', async () => {
    const work = createControllableTool('work');
    const { runtime, snapshots } = createHarness(
      { tools: [work.tool], plugins: [needsApproval(['a'])] },
      {
        turns: [{ toolCalls: ['c', 'a'].map((id) => ({ id, name: 'work', arguments: {} })) }, { text: 'ok' }],
      },
    );
    const handle = runtime.run({ agentId: 'agent', input: 'go', onSuspend: 'wait' });
    await work.started('c');
    expect(await handle.decide(approve('a'))).toMatchObject([
      { status: 'rejected', reason: 'not_suspended' },
    ]);
    work.release('c');
    await until(() => snapshots.some((snapshot) => row(snapshot) === 'succeeded suspended -> waiting'));
    await handle.decide(approve('a'));
    await work.started('a');
    work.release('a');
    expect(await handle.result).toMatchObject({ status: 'done' });
  });
});
