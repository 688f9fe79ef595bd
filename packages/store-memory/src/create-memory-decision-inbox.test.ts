import { describeDecisionInboxConformance } from '@awaken/store-conformance';
import { describe, expect, it } from 'vitest';
import { createMemoryDecisionInbox } from './create-memory-decision-inbox';

describeDecisionInboxConformance({
  name: 'memory',
  async create() {
    return createMemoryDecisionInbox();
  },
});

describe('createMemoryDecisionInbox', () => {
  it('stores the decision even when a subscriber throws', async () => {
    const inbox = createMemoryDecisionInbox();
    await inbox.subscribe('run-1', () => {
      throw new Error('listener bug');
    });
    const decision = {
      decisionId: 'd1',
      toolCallId: 'c1',
      action: 'resume' as const,
      result: null,
      updatedAt: 1,
    };
    expect(await inbox.put('run-1', decision)).toBe('stored');
    expect(await inbox.peek('run-1')).toEqual([decision]);
  });
});
