import { describe, expect, it } from 'vitest';
import { approve } from '../../../test-support/harness';
import { createSharedStores } from '../../../test-support/shared-stores';

const FAILURE = { message: 'dead-lettered after 3 attempts', code: 'dead_letter' };

describe('failRun ends a run with the error termination', () => {
  it('ends a waiting run: error termination, open calls cancelled, log closed with run_finish error', async () => {
    const s = createSharedStores();
    const runtime = s.runtime();
    const first = await runtime.runToCompletion({ agentId: 'agent', runId: 'r', threadId: 't', input: 'go' });
    expect(first.status).toBe('waiting');

    const result = await runtime.failRun('r', FAILURE);
    expect(result).toMatchObject({ status: 'done', termination: { type: 'error', ...FAILURE } });
    const record = await s.store.getRun('r');
    expect(record).toMatchObject({ status: 'done', termination: { type: 'error', ...FAILURE } });
    expect(record?.waiting).toBeUndefined();
    const log = await s.eventLog.read('r');
    const finish = log.at(-1);
    expect(finish).toMatchObject({
      type: 'run_finish',
      status: 'done',
      termination: { type: 'error', ...FAILURE },
    });
    expect(log).toContainEqual(expect.objectContaining({ type: 'error', code: 'dead_letter' }));
    expect(log).toContainEqual(
      expect.objectContaining({ type: 'tool_call_done', toolCallId: 'a', status: 'cancelled' }),
    );
    expect(await s.eventLog.isFinished('r')).toBe(true);
    expect(s.danger.executions('a')).toBe(0);
  });

  it('ends a run that never started (created) without calling the model', async () => {
    const s = createSharedStores();
    const runtime = s.runtime();
    await runtime.createRun({ agentId: 'agent', runId: 'r', threadId: 't', input: 'go' });
    const result = await runtime.failRun('r', { message: 'permanent failure: bad input' });
    expect(result.termination).toEqual({ type: 'error', message: 'permanent failure: bad input' });
    expect(await s.eventLog.isFinished('r')).toBe(true);
  });

  it('aborts a run executing in this runtime and ends it with the error', async () => {
    const s = createSharedStores();
    const runtime = s.runtime();
    await runtime.runToCompletion({ agentId: 'agent', runId: 'r', threadId: 't', input: 'go' });
    const resumed = runtime.resumeRun('r', { decisions: [approve('a')] });
    await s.danger.started('a');
    const failed = await runtime.failRun('r', FAILURE);
    expect(failed.termination).toEqual({ type: 'error', ...FAILURE });
    expect((await resumed.result).termination).toEqual({ type: 'error', ...FAILURE });
    expect(await s.eventLog.isFinished('r')).toBe(true);
  });

  it('leaves a run held by another process untouched (run_busy), queuing nothing', async () => {
    const s = createSharedStores();
    const runtime = s.runtime();
    await runtime.runToCompletion({ agentId: 'agent', runId: 'r', threadId: 't', input: 'go' });
    const before = await s.store.getRun('r');
    const held = await s.store.acquireRun('r', { owner: 'other-process', leaseMs: 60_000 });
    await expect(runtime.failRun('r', FAILURE)).rejects.toMatchObject({ code: 'run_busy' });
    expect(await s.inbox.peek('r')).toEqual([]);
    expect(await s.store.getRun('r')).toEqual(before);
    await s.store.releaseRun(held);
  });

  it('reports the stored outcome of a run that is already done, unchanged', async () => {
    const s = createSharedStores();
    const runtime = s.runtime();
    await runtime.runToCompletion({ agentId: 'agent', runId: 'r', threadId: 't', input: 'go' });
    await runtime.cancelRun('r', 'changed my mind');
    const result = await runtime.failRun('r', FAILURE);
    expect(result.termination).toEqual({ type: 'cancelled', reason: 'changed my mind' });
  });

  it('rejects a malformed failure naming the field, writing nothing', async () => {
    const s = createSharedStores();
    const runtime = s.runtime();
    await runtime.runToCompletion({ agentId: 'agent', runId: 'r', threadId: 't', input: 'go' });
    const before = await s.store.getRun('r');
    await expect(runtime.failRun('r', { message: '' })).rejects.toMatchObject({
      code: 'validation_failed',
      details: { field: 'message' },
    });
    await expect(
      runtime.failRun('r', { message: 'x', code: 7 } as unknown as { message: string }),
    ).rejects.toMatchObject({ code: 'validation_failed', details: { field: 'code' } });
    expect(await s.store.getRun('r')).toEqual(before);
  });
});
