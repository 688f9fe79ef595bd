import { approve, deny } from '@awaken/contract';
import { describe, expect, it } from 'vitest';
import { agentTool } from '../../agent-tool';
import { delegatingModel, subAgentHarness } from '../../../test-support/sub-agents';

function depthTwo() {
  const manager = delegatingModel([['janitor', 'delete /tmp/deep.txt']]);
  const setup = subAgentHarness({
    delegations: [['manager', 'have the janitor delete /tmp/deep.txt']],
    parentTools: [agentTool('manager')],
    agents: [{ id: 'manager', model: manager, tools: [agentTool('janitor')] }],
  });
  return { ...setup, manager };
}

describe('a grandchild asks (depth 2)', () => {
  it('its question reaches the top-level run with the full agent path; approving resumes the grandchild only', async () => {
    const { runtime, store, parentModel, manager, janitor, listFiles, deleteFile } = depthTwo();
    const first = await runtime.runToCompletion({ agentId: 'assistant', input: 'clean up' });
    expect(first.status).toBe('waiting');
    const [ticket] = first.waiting!.tickets;
    expect(ticket).toMatchObject({
      toolName: 'manager',
      message: expect.stringMatching(/^manager › janitor › delete_file: Allow delete_file/),
      nested: {
        toolName: 'delete_file',
        arguments: { path: '/tmp/deep.txt' },
        agentPath: ['assistant', 'manager', 'janitor'],
      },
    });
    // the address is the next hop: the manager's run and its own (nested) ticket
    const managerRun = await store.getRun(ticket!.nested!.runId);
    expect(managerRun).toMatchObject({ agentId: 'manager', parentRunId: first.runId, status: 'waiting' });
    const managerTicket = managerRun!.waiting!.tickets[0]!;
    expect(ticket!.nested!.ticketId).toBe(managerTicket.ticketId);
    expect(managerTicket.nested).toMatchObject({ toolName: 'delete_file', toolCallId: 'del_0' });
    const janitorRun = await store.getRun(managerTicket.nested!.runId);
    expect(janitorRun).toMatchObject({
      agentId: 'janitor',
      parentRunId: managerRun!.runId,
      agentPath: ['assistant', 'manager', 'janitor'],
      status: 'waiting',
    });
    const before = [listFiles.count(), janitor.callCount, manager.callCount, parentModel.callCount];
    expect(before).toEqual([1, 2, 1, 1]);

    const done = await runtime.resumeRun(first.runId, { decisions: [approve(ticket!)] }).result;
    expect(done.status).toBe('done');
    expect(done.response).toContain('janitor deleted /tmp/deep.txt.');
    expect([
      listFiles.count(),
      deleteFile.count(),
      janitor.callCount,
      manager.callCount,
      parentModel.callCount,
    ]).toEqual([1, 1, 3, 2, 2]);
    for (const runId of [managerRun!.runId, janitorRun!.runId])
      expect((await store.getRun(runId))?.status).toBe('done');
    // the audit trail of each level references the next: the inner call's own record is the janitor's
    const top = await store.getRun(first.runId);
    const trail = (top!.state.__decision_records as Array<{ forwardedTo?: { runId: string } }>) ?? [];
    expect(trail.at(-1)?.forwardedTo?.runId).toBe(managerRun!.runId);
    const inner = (await store.getRun(janitorRun!.runId))!.state.__decision_records as Array<{
      shown: { toolName: string };
      decisionId: string;
    }>;
    expect(inner.at(-1)).toMatchObject({ shown: { toolName: 'delete_file' } });
  });

  it('a denial reaches the grandchild and every level answers; none is left waiting', async () => {
    const { runtime, store, deleteFile } = depthTwo();
    const first = await runtime.runToCompletion({ agentId: 'assistant', input: 'clean up' });
    const [ticket] = first.waiting!.tickets;
    const done = await runtime.resumeRun(first.runId, { decisions: [deny(ticket!, 'not today')] }).result;
    expect(done).toMatchObject({ status: 'done' });
    expect(done.response).toContain('janitor did not delete (cancelled');
    expect(deleteFile.count()).toBe(0);
    const waiting = await store.listRunsByStatus('waiting');
    expect(waiting.items).toEqual([]);
  });
});
