import { createMemoryRunControlInbox } from '@awaken/store-memory';
import { createScriptedModel } from '@awaken/testing';
import { describe, expect, it } from 'vitest';
import { approvalPlugin, recordingTool } from '../../../test-support/approval';
import { collect, createHarness } from '../../../test-support/harness';

describe("a live run (onSuspend: 'wait') with an expiring ticket", () => {
  it('wakes itself at expiresAt with real time, resolves the call expired and finishes', async () => {
    const pay = recordingTool('pay');
    const model = createScriptedModel([
      { toolCalls: [{ id: 'a', name: 'pay', arguments: {} }] },
      { text: 'nobody answered' },
    ]);
    const { runtime } = createHarness(
      { tools: [{ ...pay.tool, approvalTimeout: 150 }], plugins: [approvalPlugin(['pay'])] },
      { model, inbox: createMemoryRunControlInbox() },
    );
    const started = Date.now();
    const handle = runtime.run({ agentId: 'agent', input: 'pay', onSuspend: 'wait' });
    const events = await collect(handle);
    const result = await handle.result;
    expect(result).toMatchObject({ status: 'done', response: 'nobody answered' });
    expect(Date.now() - started).toBeGreaterThanOrEqual(150);
    expect(pay.count()).toBe(0);
    const kinds = events.map((event) =>
      event.type === 'tool_call_done' ? `done:${event.status}` : event.type,
    );
    expect(kinds.indexOf('tool_call_suspended')).toBeLessThan(kinds.indexOf('done:expired'));
  });
});
