import { approve, defineTool, readDecisionRecords, runAskersOf } from '@awaken/contract';
import { createAgentRuntime } from '@awaken/runtime';
import { createMemoryThreadRunStore } from '@awaken/store-memory';
import { createScriptedModel } from '@awaken/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createPermissionPlugin } from '../../create-permission-plugin';

/**
 * An approval with edited arguments asks for the edited call: when the edit moves the call under a
 * four-eyes rule, it needs a second person — its editor cannot approve it, nor can the run's starter.
 */
function setup() {
  const ran: string[] = [];
  const deleteFile = defineTool({
    name: 'delete_file',
    description: 'deletes a file',
    parameters: z.object({ path: z.string() }),
    execute: ({ path }) => {
      ran.push(path);
      return { deleted: path };
    },
  });
  const threadRuns = createMemoryThreadRunStore();
  const runtime = createAgentRuntime({
    agents: [
      {
        id: 'agent',
        tools: [deleteFile],
        plugins: [
          createPermissionPlugin({
            defaultBehavior: 'allow',
            rules: [
              { tool: 'delete_file', behavior: 'ask' },
              { tool: 'delete_file(/srv/**)', behavior: 'ask', requireDistinctApprover: true },
            ],
          }),
        ],
      },
    ],
    stores: { threadRuns },
    model: createScriptedModel([
      { toolCalls: [{ id: 'c1', name: 'delete_file', arguments: { path: '/tmp/harmless.txt' } }] },
      { text: 'done' },
    ]),
  });
  return { runtime, ran, threadRuns };
}

const alice = { caller: { tenant: 'acme', subject: 'alice' } };

describe('edited arguments are judged as the call they become (four-eyes)', () => {
  it.each(['/srv/edited.csv', '/tmp/../srv/edited.csv'])(
    'the starter approving her plain ask with an edit into /srv (%s): the call asks again, for the edited call; she cannot answer it, another person can',
    async (path) => {
      const { runtime, ran, threadRuns } = setup();
      const first = await runtime.runToCompletion({ agentId: 'agent', input: 'go', context: alice });
      const [ticket] = first.waiting!.tickets;
      expect(ticket!.parameters).not.toHaveProperty('requiresDistinctApprover');
      const edited = await runtime.resumeRun(first.runId, {
        decisions: [{ ...approve(ticket!, { editedArguments: { path } }), decidedBy: 'alice' }],
      }).result;
      expect(ran).toEqual([]);
      expect(edited.status).toBe('waiting');
      const [again] = edited.waiting!.tickets;
      expect(again!.ticketId).not.toBe(ticket!.ticketId);
      expect(again!.arguments).toEqual({ path });
      expect(again!.message).toContain('edited arguments');
      expect(runAskersOf((await threadRuns.getRun(first.runId))!)).toEqual(['alice']);

      const self = runtime.resumeRun(first.runId, {
        decisions: [{ ...approve(again!), decidedBy: 'alice' }],
      });
      expect((await self.receipts)[0]).toMatchObject({
        status: 'rejected',
        reason: 'self_approval_forbidden',
      });
      expect((await self.result).status).toBe('waiting');
      expect(ran).toEqual([]);

      const bob = await runtime.resumeRun(first.runId, {
        decisions: [{ ...approve(again!), decidedBy: 'bob' }],
      });
      expect((await bob.receipts)[0]).toMatchObject({ status: 'accepted' });
      expect((await bob.result).status).toBe('done');
      expect(ran).toEqual([path]);
      const audit = readDecisionRecords((await threadRuns.getRun(first.runId))!);
      expect(audit.map((record) => [record.decidedBy, record.shown.arguments])).toEqual([
        ['alice', { path: '/tmp/harmless.txt' }],
        ['bob', { path }],
      ]);
    },
  );

  it('an editor who is not the starter becomes an asker: the edited four-eyes call needs a third person', async () => {
    const { runtime, ran } = setup();
    const first = await runtime.runToCompletion({ agentId: 'agent', input: 'go', context: alice });
    const [ticket] = first.waiting!.tickets;
    const edited = await runtime.resumeRun(first.runId, {
      decisions: [{ ...approve(ticket!, { editedArguments: { path: '/srv/x' } }), decidedBy: 'bob' }],
    }).result;
    const [again] = edited.waiting!.tickets;
    for (const who of ['alice', 'bob']) {
      const refused = runtime.resumeRun(first.runId, { decisions: [{ ...approve(again!), decidedBy: who }] });
      expect((await refused.receipts)[0]).toMatchObject({
        status: 'rejected',
        reason: 'self_approval_forbidden',
      });
      expect((await refused.result).status).toBe('waiting');
    }
    const carol = await runtime.resumeRun(first.runId, {
      decisions: [{ ...approve(again!), decidedBy: 'carol' }],
    });
    expect((await carol.result).status).toBe('done');
    expect(ran).toEqual(['/srv/x']);
  });

  it('an edit that stays out of four-eyes runs at once, and an edit equal to the call asks nothing more', async () => {
    const { runtime, ran } = setup();
    const first = await runtime.runToCompletion({ agentId: 'agent', input: 'go', context: alice });
    const [ticket] = first.waiting!.tickets;
    const done = await runtime.resumeRun(first.runId, {
      decisions: [
        { ...approve(ticket!, { editedArguments: { path: '/tmp/other.txt' } }), decidedBy: 'alice' },
      ],
    }).result;
    expect(done.status).toBe('done');
    expect(ran).toEqual(['/tmp/other.txt']);
  });
});
