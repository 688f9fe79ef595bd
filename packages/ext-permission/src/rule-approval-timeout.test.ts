import type { ToolGateContext } from '@awaken/contract';
import { describe, expect, it } from 'vitest';
import { createPermissionPlugin } from './create-permission-plugin';
import { createPermissionPolicy } from './create-permission-policy';

const config = {
  rules: [
    { tool: 'transfer(currency = "EUR")', behavior: 'ask' as const, approvalTimeout: 60_000 },
    { tool: 'transfer', behavior: 'ask' as const },
  ],
};

describe("a permission rule's approvalTimeout", () => {
  it('is carried by the ask decision of that rule only', () => {
    const policy = createPermissionPolicy(config);
    expect(policy.evaluate({ name: 'transfer', arguments: { currency: 'EUR' } })).toMatchObject({
      behavior: 'ask',
      approvalTimeout: 60_000,
    });
    expect(
      policy.evaluate({ name: 'transfer', arguments: { currency: 'USD' } }).approvalTimeout,
    ).toBeUndefined();
  });

  it('becomes the approvalTimeout of the suspend the gate returns', async () => {
    const plugin = createPermissionPlugin(config);
    const state = { get: (key: { initial(): unknown }) => key.initial(), set() {}, update() {} };
    const decision = await plugin.hooks.toolGate?.({
      phase: 'ToolGate',
      step: 1,
      state,
      call: { id: 'c1', name: 'transfer', arguments: { currency: 'EUR' } },
      batch: [],
    } as unknown as ToolGateContext);
    expect(decision).toMatchObject({ type: 'suspend', approvalTimeout: 60_000 });
  });

  it('must be a positive integer of milliseconds', () => {
    expect(() =>
      createPermissionPolicy({ rules: [{ tool: 'transfer', behavior: 'ask', approvalTimeout: -5 }] }),
    ).toThrow(/approvalTimeout/);
  });
});
