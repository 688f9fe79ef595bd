import { AwakenError, type ThreadRunStore, approve } from '@awaken/contract';
import { createMemoryThreadRunStore } from '@awaken/store-memory';
import { createControllableTool } from '@awaken/testing';
import { describe, expect, it } from 'vitest';
import { subAgentHarness } from '../../../test-support/sub-agents';

/** Records the code of every write the store refuses. */
function watched(store: ThreadRunStore, rejected: string[]): ThreadRunStore {
  return new Proxy(store, {
    get(target, key, receiver) {
      const value = Reflect.get(target, key, receiver);
      if (typeof value !== 'function') return value;
      return async (...args: unknown[]) => {
        try {
          return await value.apply(target, args);
        } catch (error) {
          rejected.push(`${String(key)}:${AwakenError.isInstance(error) ? error.code : 'raw'}`);
          throw error;
        }
      };
    },
  });
}

describe('fencing of a parent and its inline child', () => {
  it('an activation taken over while its child ran writes nothing: not the child, not the parent', async () => {
    let time = 1_000_000;
    const store = createMemoryThreadRunStore({ now: () => time });
    const rejected: string[] = [];
    const slow = createControllableTool('delete_file');
    const lease = { runLease: { leaseMs: 60_000 } };
    const a = subAgentHarness({ store: watched(store, rejected), deleteTool: slow.tool, runtime: lease });
    const b = subAgentHarness({ store, runtime: lease });

    const waiting = await b.runtime.runToCompletion({
      agentId: 'assistant',
      input: 'delete /tmp/report.txt',
    });
    const [ticket] = waiting.waiting!.tickets;
    const stale = a.runtime.resumeRun(waiting.runId, {
      decisions: [approve(ticket!, { decisionId: 'd_a' })],
    });
    await slow.started('del_0');

    time += 60_001; // A's leases (parent and child) lapse on the store's clock while the child's tool runs
    const done = await b.runtime.resumeRun(waiting.runId, {
      decisions: [approve(ticket!, { decisionId: 'd_b' })],
    }).result;
    expect(done).toMatchObject({ status: 'done' });
    expect(done.response).toContain('janitor deleted /tmp/report.txt.');
    const parent = await store.getRun(waiting.runId);
    const child = await store.getRun(ticket!.nested!.runId);
    expect(child?.status).toBe('done');

    slow.release('del_0', { late: true });
    await expect(stale.result).rejects.toMatchObject({ code: 'detached', details: { reason: 'lease_lost' } });
    // the late child and the late parent were both refused by their records' fences
    expect(rejected).toEqual(['commitCheckpoint:stale_claim', 'commitCheckpoint:stale_claim']);
    expect(await store.getRun(waiting.runId)).toEqual(parent);
    expect(await store.getRun(ticket!.nested!.runId)).toEqual(child);
    expect(b.parentModel.callCount + a.parentModel.callCount).toBe(2);
  });
});
