import { type RunEventLog, decisionControl } from '@awaken/contract';
import { createMemoryRunControlInbox, createMemoryRunEventLog } from '@awaken/store-memory';
import { describe, expect, it } from 'vitest';
import { approvalPlugin, recordingTool } from '../../../test-support/approval';
import { approve, collect, createHarness, until } from '../../../test-support/harness';
import { createTestStore } from '../../../test-support/recording-store';

const turns = () => [{ toolCalls: [{ id: 'a', name: 'danger', arguments: {} }] }, { text: 'done' }];

describe('event log and control inbox', () => {
  it('appends every event to the event log before yielding it, with consecutive seq', async () => {
    // a slow log: each append completes a macrotask later, so an event yielded before its append
    // finished would be seen here while the log does not hold it yet
    const memoryLog = createMemoryRunEventLog();
    const eventLog: RunEventLog = {
      ...memoryLog,
      async append(runId, events, options) {
        await new Promise<void>((resolve) => setImmediate(resolve));
        return memoryLog.append(runId, events, options);
      },
    };
    const danger = recordingTool('danger');
    const { runtime } = createHarness(
      { tools: [danger.tool], plugins: [approvalPlugin(['danger'])] },
      { turns: turns(), eventLog },
    );
    const handle = runtime.run({ agentId: 'agent', runId: 'r', input: 'go' });
    for await (const event of handle) {
      expect(await eventLog.lastSeq('r')).toBeGreaterThanOrEqual(event.seq);
    }
    const second = await collect(runtime.resumeRun('r', { decisions: [approve('a')] }));
    const logged = await eventLog.read('r');
    expect(logged.map((event) => event.seq)).toEqual(logged.map((_, index) => index + 1));
    expect(logged.slice(-second.length)).toEqual(second);
    expect(await eventLog.isFinished('r')).toBe(true);
  });

  it('a decision written to the inbox by another process wakes and resumes a hot waiting run', async () => {
    const controlInbox = createMemoryRunControlInbox();
    const store = createTestStore();
    const danger = recordingTool('danger');
    const { runtime } = createHarness(
      { tools: [danger.tool], plugins: [approvalPlugin(['danger'])] },
      { turns: turns(), inbox: controlInbox, store },
    );
    const handle = runtime.run({ agentId: 'agent', runId: 'r', input: 'go', onSuspend: 'wait' });
    await until(async () => (await store.getRun('r'))?.status === 'waiting');
    expect(await controlInbox.put('r', decisionControl(approve('a')))).toBe('stored');
    expect(await handle.result).toMatchObject({ status: 'done', response: 'done' });
    expect(danger.count('a')).toBe(1);
  });

  it('decisions given to the handle are also written to the inbox, and applied once', async () => {
    const controlInbox = createMemoryRunControlInbox();
    const store = createTestStore();
    const danger = recordingTool('danger');
    const { runtime } = createHarness(
      { tools: [danger.tool], plugins: [approvalPlugin(['danger'])] },
      { turns: turns(), inbox: controlInbox, store },
    );
    const handle = runtime.run({ agentId: 'agent', runId: 'r', input: 'go', onSuspend: 'wait' });
    await until(async () => (await store.getRun('r'))?.status === 'waiting');
    expect(await handle.decide(approve('a'))).toMatchObject([{ status: 'accepted' }]);
    await handle.result;
    // applied and recorded, so the inbox let go of it; a late re-send changes nothing
    expect(await controlInbox.peek('r')).toEqual([]);
    expect(await controlInbox.put('r', decisionControl(approve('a')))).toBe('stored');
    expect(await runtime.resumeRun('r').result).toMatchObject({ status: 'done', response: 'done' });
    expect(danger.count('a')).toBe(1);
  });
});
