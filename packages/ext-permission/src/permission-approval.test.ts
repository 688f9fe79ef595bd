import { findJsonIssue } from '@awaken/contract';
import { describe, expect, it } from 'vitest';
import { buildApprovalSuspension, previewArguments } from './permission-approval';

describe('previewArguments', () => {
  it('cuts long arguments after 300 units, never inside an emoji, so the suspension can be stored', () => {
    for (const pad of [298, 299, 300]) {
      const text = `${'a'.repeat(pad)}👍👍`;
      const preview = previewArguments(text);
      expect(preview.endsWith('…')).toBe(true);
      expect(preview.length).toBeLessThanOrEqual(301);
      const suspension = buildApprovalSuspension(
        1,
        { id: 'c1', name: 'write', arguments: text } as never,
        { behavior: 'ask', reason: 'asks' } as never,
      );
      expect(findJsonIssue(suspension)).toBeUndefined();
    }
    expect(previewArguments('short')).toBe('short');
  });
});
