import { type RunWaitingTicket, approve, deny } from '@awaken/contract';
import { describe, expect, it } from 'vitest';
import { until } from '../../../test-support/harness';
import { subAgentHarness } from '../../../test-support/sub-agents';

const delegations = [
  ['janitor', 'delete /tmp/a.txt'],
  ['archivist', 'delete /tmp/b.txt'],
] as const;

function byAgent(tickets: readonly RunWaitingTicket[], agentId: string): RunWaitingTicket {
  const found = tickets.find((ticket) => ticket.nested?.agentPath.at(-1) === agentId);
  if (!found) throw new Error(`no ticket of ${agentId} in ${JSON.stringify(tickets)}`);
  return found;
}

describe('two sub-agents at once', () => {
  for (const order of [
    ['janitor', 'archivist'],
    ['archivist', 'janitor'],
  ] as const) {
    it(`parallel: both ask at once; answered ${order.join(' then ')}, each resumes its own child, siblings never re-run`, async () => {
      const { runtime, store, janitor, archivist, listFiles, deleteFile, parentModel } = subAgentHarness({
        toolExecution: 'parallel',
        delegations,
      });
      const first = await runtime.runToCompletion({ agentId: 'assistant', input: 'clean both' });
      const tickets = first.waiting!.tickets;
      expect(tickets).toHaveLength(2);
      expect(byAgent(tickets, 'janitor').nested?.arguments).toEqual({ path: '/tmp/a.txt' });
      expect(byAgent(tickets, 'archivist').nested?.arguments).toEqual({ path: '/tmp/b.txt' });
      expect(new Set(tickets.map((ticket) => ticket.nested?.runId)).size).toBe(2);

      const [firstAgent, secondAgent] = order;
      const partial = await runtime.resumeRun(first.runId, {
        decisions: [approve(byAgent(tickets, firstAgent))],
      }).result;
      expect(partial.status).toBe('waiting');
      expect(partial.waiting!.tickets.map((ticket) => ticket.ticketId)).toEqual([
        byAgent(tickets, secondAgent).ticketId,
      ]);
      // the sibling did not move: still one model turn pair and no delete of its own
      const sibling = secondAgent === 'janitor' ? janitor : archivist;
      expect(sibling.callCount).toBe(2);
      expect((await store.getRun(byAgent(tickets, secondAgent).nested!.runId))?.status).toBe('waiting');

      const done = await runtime.resumeRun(first.runId, {
        decisions: [deny(byAgent(tickets, secondAgent), 'not that one')],
      }).result;
      expect(done.status).toBe('done');
      expect(done.response).toContain(`${firstAgent} deleted`);
      expect(done.response).toContain(`${secondAgent} did not delete`);
      expect([listFiles.count(), deleteFile.count(), janitor.callCount, archivist.callCount]).toEqual([
        2, 1, 3, 3,
      ]);
      expect(parentModel.callCount).toBe(2);
      expect((await store.listRunsByStatus('waiting')).items).toEqual([]);
    });
  }

  it('parallel and live: answers through the handle of the waiting parent, one at a time, each reaches its own child', async () => {
    const { runtime, store, janitor, archivist, deleteFile } = subAgentHarness({
      toolExecution: 'parallel',
      delegations,
    });
    const handle = runtime.run({ agentId: 'assistant', input: 'clean both', onSuspend: 'wait' });
    const stored = async () => await store.getRun(handle.runId);
    await until(async () => (await stored())?.waiting?.tickets.length === 2);
    const tickets = (await stored())!.waiting!.tickets;
    expect(await handle.decide(approve(byAgent(tickets, 'archivist')))).toMatchObject([
      { status: 'accepted' },
    ]);
    await until(async () => (await stored())?.waiting?.tickets.length === 1 && archivist.callCount === 3);
    expect(janitor.callCount).toBe(2);
    expect(await handle.decide(approve(byAgent(tickets, 'janitor')))).toMatchObject([{ status: 'accepted' }]);
    const done = await handle.result;
    expect(done.status).toBe('done');
    expect([janitor.callCount, archivist.callCount, deleteFile.count()]).toEqual([3, 3, 2]);
  });

  it('sequential: the second child starts only once the first one is answered, and asks in turn', async () => {
    const { runtime, janitor, archivist, listFiles, deleteFile } = subAgentHarness({ delegations });
    const first = await runtime.runToCompletion({ agentId: 'assistant', input: 'clean both' });
    expect(first.waiting!.tickets.map((ticket) => ticket.nested?.agentPath)).toEqual([
      ['assistant', 'janitor'],
    ]);
    expect(archivist.callCount).toBe(0);
    const second = await runtime.resumeRun(first.runId, { decisions: [approve(first.waiting!.tickets[0]!)] })
      .result;
    expect(second.waiting!.tickets.map((ticket) => ticket.nested?.agentPath)).toEqual([
      ['assistant', 'archivist'],
    ]);
    const done = await runtime.resumeRun(first.runId, { decisions: [approve(second.waiting!.tickets[0]!)] })
      .result;
    expect(done.status).toBe('done');
    expect([listFiles.count(), deleteFile.count(), janitor.callCount, archivist.callCount]).toEqual([
      2, 2, 3, 3,
    ]);
  });
});
