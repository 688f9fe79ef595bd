import { describe, expect, it } from 'vitest';
import { BackendEnv } from './backend-env';

describe('BackendEnv', () => {
  it('learns the run leases a result grants: the fence the latest and earlier references name', () => {
    const env = new BackendEnv();
    expect(env.fenceOf('r0')).toBe(0);
    env.learn({ runId: 'r0', owner: 'o0', fence: 1, leaseUntil: 10 });
    env.learn({ runId: 'r0', owner: 'o0', fence: 1, leaseUntil: 20 }); // renewed: the same lease
    env.learn({ lease: { runId: 'r0', owner: 'o1', fence: 2, leaseUntil: 30 }, lastSeq: 0 });
    expect(env.fenceOf('r0')).toBe(2);
    expect(env.leases.get('r0')).toEqual([
      { runId: 'r0', owner: 'o0', fence: 1 },
      { runId: 'r0', owner: 'o1', fence: 2 },
    ]);
    expect(env.fenceOf('r1')).toBe(0);
  });
});
