import { describe, expect, it } from 'vitest';
import { childIdsOf } from '../../internal/subagents/child-ids';
import { subAgentHarness } from '../../../test-support/sub-agents';

/**
 * A child's ids are derived from its parent run, step and call, so a caller who picks the parent's
 * run id can compute them. A run someone else created under that id first is not the call's child: the
 * call fails naming it, and that run is left as it was — never continued, never read as the child's
 * answer.
 */
describe('a run squatting the id of a child', () => {
  it('is not taken for the child: the call fails, the squatted run is not continued', async () => {
    const { runtime, store, janitor, deleteFile } = subAgentHarness();
    const ids = childIdsOf({ runId: 'parent-1', step: 1, callId: 'delegate_0' });
    // a run of the same agent, started by a user (not by the parent) under the child's ids
    const squatted = await runtime.runToCompletion({
      agentId: 'janitor',
      runId: ids.runId,
      threadId: ids.threadId,
      input: 'delete /tmp/squat.txt',
    });
    expect(squatted.status).toBe('waiting');
    const before = await store.getRun(ids.runId);
    const calls = janitor.callCount;

    const parent = await runtime.runToCompletion({ agentId: 'assistant', runId: 'parent-1', input: 'go' });
    expect(parent.status).toBe('done');
    expect(parent.response).toContain(`run ${ids.runId} is not the child`);
    const after = await store.getRun(ids.runId);
    expect(after).toMatchObject({ status: 'waiting', version: before?.version, origin: before?.origin });
    expect(after?.parentRunId).toBeUndefined();
    expect(janitor.callCount).toBe(calls);
    expect(deleteFile.count()).toBe(0);
  });
});
