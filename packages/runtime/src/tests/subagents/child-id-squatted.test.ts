import { AwakenError } from '@awaken/contract';
import { describe, expect, it } from 'vitest';
import { childIdsOf } from '../../internal/child-ids/child-ids';
import { subAgentHarness } from '../../../test-support/sub-agents';

/**
 * A child's run and thread ids are derived from its parent run, step and call, so a caller who picks
 * the parent's run id can compute them. They are the runtime's own: a run asked for under a run or
 * thread id of that shape is refused (`validation_failed` naming the field), so no run squats a
 * child's id — to be continued as the child and read as its answer — and no child is created on a
 * thread holding someone else's history.
 */
describe("a run asked for under a child's derived ids", () => {
  it('is refused naming the field; the child is then created clean by its parent', async () => {
    const { runtime, store, deleteFile } = subAgentHarness();
    const ids = childIdsOf({ runId: 'parent-1', step: 1, callId: 'delegate_0' });
    for (const [field, request] of [
      ['runId', { runId: ids.runId }],
      ['threadId', { threadId: ids.threadId }],
    ] as const) {
      for (const start of [
        async () =>
          runtime.runToCompletion({ agentId: 'janitor', input: 'delete /tmp/squat.txt', ...request }),
        async () => runtime.createRun({ agentId: 'janitor', input: 'delete /tmp/squat.txt', ...request }),
      ]) {
        const refused = await start().then(
          () => undefined,
          (error: unknown) => error,
        );
        expect(AwakenError.hasCode(refused, 'validation_failed')).toBe(true);
        expect((refused as AwakenError).details).toMatchObject({ field });
      }
    }
    expect(await store.getThread(ids.threadId)).toBeNull();

    const parent = await runtime.runToCompletion({ agentId: 'assistant', runId: 'parent-1', input: 'go' });
    expect(parent.status).toBe('waiting');
    const child = await store.getRun(ids.runId);
    expect(child).toMatchObject({ parentRunId: 'parent-1', parentCallId: 'delegate_0', origin: 'internal' });
    const history = await store.readMessages(ids.threadId);
    expect(new Set(history.map((entry) => entry.runId))).toEqual(new Set([ids.runId]));
    expect(deleteFile.count()).toBe(0);
  });
});
