import { decisionControl } from '@awaken/contract';
import { describeRunControlInboxConformance } from '@awaken/store-conformance';
import { describe, expect, it } from 'vitest';
import { createMemoryRunControlInbox } from './create-memory-run-control-inbox';

describeRunControlInboxConformance({
  name: 'memory',
  async create() {
    return createMemoryRunControlInbox();
  },
});

describe('createMemoryRunControlInbox', () => {
  it('stores the command even when a subscriber throws', async () => {
    const inbox = createMemoryRunControlInbox();
    await inbox.subscribe('run-1', () => {
      throw new Error('listener bug');
    });
    const control = decisionControl({
      decisionId: 'd1',
      toolCallId: 'c1',
      action: 'resume',
      result: null,
      updatedAt: 1,
    });
    expect(await inbox.put('run-1', control)).toBe('stored');
    expect(await inbox.peek('run-1')).toEqual([control]);
  });

  it('keeps a tool call id named __proto__ as data', async () => {
    const inbox = createMemoryRunControlInbox();
    const control = decisionControl({
      decisionId: '__proto__',
      toolCallId: '__proto__',
      action: 'resume',
      updatedAt: 1,
    });
    expect(await inbox.put('run-1', control)).toBe('stored');
    expect(await inbox.peek('run-1')).toEqual([control]);
  });
});
