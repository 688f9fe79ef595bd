import { describe, expect, it } from 'vitest';
import { handoffTargetOf, handoffTool } from './handoff-tool';

describe('handoffTool', () => {
  it('names the tool after its target, in the characters model providers accept', () => {
    expect(handoffTool('billing').name).toBe('transfer_to_billing');
    expect(handoffTool('billing.v2 eu').name).toBe('transfer_to_billing_v2_eu');
    expect(handoffTool('x'.repeat(100)).name).toHaveLength(64);
    expect(handoffTool('billing', { name: 'escalate', description: 'to a human desk' })).toMatchObject({
      name: 'escalate',
      description: 'to a human desk',
    });
  });

  it('marks its target so a spread copy still hands off, and no other tool does', () => {
    const tool = handoffTool('billing');
    expect(handoffTargetOf(tool)).toBe('billing');
    expect(handoffTargetOf({ ...tool, description: 'changed' })).toBe('billing');
    expect(handoffTargetOf({ name: 'transfer_to_billing' })).toBeUndefined();
    expect(Object.keys(tool)).not.toContain('agentId');
  });

  it('takes an optional reason of at most 1000 characters', async () => {
    const schema = handoffTool('billing').parameters as { safeParse(value: unknown): { success: boolean } };
    expect(schema.safeParse({}).success).toBe(true);
    expect(schema.safeParse({ reason: 'refund question' }).success).toBe(true);
    expect(schema.safeParse({ reason: 'x'.repeat(1001) }).success).toBe(false);
    expect(schema.safeParse({ reason: 42 }).success).toBe(false);
  });
});
