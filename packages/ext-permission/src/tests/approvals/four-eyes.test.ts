import { AwakenError } from '@awaken/contract';
import { describe, expect, it } from 'vitest';
import { createPermissionPolicy } from '../../create-permission-policy';
import { buildApprovalSuspension } from '../../permission-approval';

const policy = createPermissionPolicy({
  defaultBehavior: 'allow',
  rules: [
    { tool: 'pay(to ~ "offshore-*")', behavior: 'ask', requireDistinctApprover: true },
    { tool: 'pay', behavior: 'ask' },
  ],
});

describe('four-eyes permission rules (requireDistinctApprover)', () => {
  it('mark the ask and its ticket: only an approver other than the starter may answer', () => {
    const call = { id: 'c1', name: 'pay', arguments: { to: 'offshore-1' } };
    const decision = policy.evaluate(call);
    expect(decision).toMatchObject({ behavior: 'ask', requireDistinctApprover: true });
    expect(buildApprovalSuspension(1, call, decision).requiresDistinctApprover).toBe(true);
  });

  it('leave other asks as they are', () => {
    const call = { id: 'c2', name: 'pay', arguments: { to: 'bob' } };
    const decision = policy.evaluate(call);
    expect(decision.behavior).toBe('ask');
    expect(decision.requireDistinctApprover).toBeUndefined();
    expect(buildApprovalSuspension(1, call, decision).requiresDistinctApprover).toBeUndefined();
  });

  it('are never turned into an allow by a remembered approval (other asks are)', () => {
    const grants = ['pay'];
    expect(policy.evaluate({ name: 'pay', arguments: { to: 'offshore-1' } }, { grants }).behavior).toBe(
      'ask',
    );
    expect(policy.evaluate({ name: 'pay', arguments: { to: 'bob' } }, { grants }).behavior).toBe('allow');
  });

  it('apply to ask rules only: on allow or deny the configuration is refused, naming the field', () => {
    let error: unknown;
    try {
      createPermissionPolicy({ rules: [{ tool: 'pay', behavior: 'deny', requireDistinctApprover: true }] });
    } catch (caught) {
      error = caught;
    }
    expect(AwakenError.isInstance(error) && error.code).toBe('invalid_config');
    expect(String((error as Error).message)).toContain('requireDistinctApprover');
  });
});
