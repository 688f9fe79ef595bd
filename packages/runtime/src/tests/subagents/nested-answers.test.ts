import {
  CLIENT_TOOL_ACTION,
  type InferenceRequest,
  answer,
  approve,
  defineTool,
  readDecisionRecords,
  toolPending,
} from '@awaken/contract';
import { createManualClock, createScriptedModel } from '@awaken/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { agentTool } from '../../agent-tool';
import { askPlugin, lastToolMessage, subAgentHarness } from '../../../test-support/sub-agents';

describe('every kind of answer through a nested ticket', () => {
  it("a value answer (a client tool's output) reaches the child's call as its result", async () => {
    const askColor = defineTool({
      name: 'ask_color',
      description: 'asks the user for a color',
      parameters: z.object({}),
      execute: (_args, context) =>
        toolPending(
          { id: `color:${context.toolCallId}`, action: CLIENT_TOOL_ACTION, message: 'pick a color' },
          'use_decision_as_tool_result',
        ),
    });
    const painter = createScriptedModel((request: InferenceRequest) => {
      const result = lastToolMessage(request.messages);
      if (!result) return { toolCalls: [{ id: 'color', name: 'ask_color', arguments: {} }] };
      return { text: `painted ${JSON.stringify(result.content)}` };
    });
    const { runtime, store } = subAgentHarness({
      delegations: [['painter', 'paint the wall']],
      parentTools: [agentTool('painter')],
      agents: [{ id: 'painter', model: painter, tools: [askColor] }],
    });
    const first = await runtime.runToCompletion({ agentId: 'assistant', input: 'paint' });
    const [ticket] = first.waiting!.tickets;
    expect(ticket).toMatchObject({
      action: CLIENT_TOOL_ACTION,
      resumeMode: 'use_decision_as_tool_result',
      message: 'painter › ask_color: pick a color',
      nested: { toolName: 'ask_color', agentPath: ['assistant', 'painter'] },
    });
    const done = await runtime.resumeRun(first.runId, { decisions: [answer(ticket!, 'blue')] }).result;
    expect(done.response).toContain('painted \\"blue\\"');
    expect(painter.callCount).toBe(2);
    const child = await store.getRun(ticket!.nested!.runId);
    expect(readDecisionRecords(child!)).toMatchObject([{ answer: { result: 'blue' } }]);
  });

  it('the nested ticket expires with the child ticket: the child resolves its call as expired and answers', async () => {
    const clock = createManualClock();
    const { runtime, store, deleteFile } = subAgentHarness({
      janitorAgent: { approvalTimeout: 1_000 },
      runtime: { now: clock.now },
    });
    const first = await runtime.runToCompletion({ agentId: 'assistant', input: 'delete /tmp/report.txt' });
    const [ticket] = first.waiting!.tickets;
    const child = await store.getRun(ticket!.nested!.runId);
    expect(ticket?.expiresAt).toBe(clock.now() + 1_000);
    expect(child!.waiting!.tickets[0]?.expiresAt).toBe(ticket?.expiresAt);

    clock.advance(1_000);
    const late = runtime.resumeRun(first.runId, { decisions: [approve(ticket!)] });
    expect(await late.receipts).toMatchObject([{ status: 'rejected', reason: 'ticket_expired' }]);
    const done = await late.result;
    expect(done.status).toBe('done');
    expect(done.response).toContain('janitor did not delete (expired');
    expect(deleteFile.count()).toBe(0);
    expect((await store.getRun(ticket!.nested!.runId))?.status).toBe('done');
    // a late answer is refused on the parent as on the child
    const again = await runtime.decide(first.runId, approve(ticket!));
    expect(again.receipts).toMatchObject([{ status: 'rejected', reason: 'run_finished' }]);
  });

  it("the child's own expiry resolving first agrees: the parent's call then reads the child's answer", async () => {
    const clock = createManualClock();
    const { runtime, store } = subAgentHarness({
      janitorAgent: { approvalTimeout: 1_000 },
      runtime: { now: clock.now },
    });
    const first = await runtime.runToCompletion({ agentId: 'assistant', input: 'delete /tmp/report.txt' });
    const childId = first.waiting!.tickets[0]!.nested!.runId;
    clock.advance(1_000);
    expect((await runtime.resumeRun(childId).result).status).toBe('done');
    const done = await runtime.resumeRun(first.runId).result;
    expect(done.response).toContain('janitor did not delete (expired');
    expect((await store.listRunsByStatus('waiting')).items).toEqual([]);
  });

  it('four-eyes on the inner call: the parent ticket refuses the run starter and takes another approver', async () => {
    const { runtime, store, deleteFile } = subAgentHarness({
      janitorPlugins: [askPlugin(['delete_file'], { requiresDistinctApprover: true })],
    });
    const first = await runtime.runToCompletion({
      agentId: 'assistant',
      input: 'delete /tmp/report.txt',
      context: { caller: { subject: 'alice' } },
    });
    const [ticket] = first.waiting!.tickets;
    expect(ticket?.requiresDistinctApprover).toBe(true);
    const child = await store.getRun(ticket!.nested!.runId);
    expect(child?.context).toEqual({ caller: { subject: 'alice' } });

    const self = await runtime.decide(first.runId, { ...approve(ticket!), decidedBy: 'alice' });
    expect(self.receipts).toMatchObject([{ status: 'rejected', reason: 'self_approval_forbidden' }]);
    await self.handle?.result;
    const nobody = await runtime.decide(first.runId, approve(ticket!));
    expect(nobody.receipts).toMatchObject([{ status: 'rejected', reason: 'self_approval_forbidden' }]);
    await nobody.handle?.result;
    expect(deleteFile.count()).toBe(0);

    const other = await runtime.decide(first.runId, {
      ...approve(ticket!),
      decidedBy: 'bob',
      channel: 'api',
    });
    expect(other.receipts).toMatchObject([{ status: 'accepted' }]);
    expect((await other.handle!.result).status).toBe('done');
    expect(deleteFile.count()).toBe(1);
    // the inner call's audit record is the child's, and the parent's references it
    const [parentRecord] = readDecisionRecords((await store.getRun(first.runId))!);
    const [childRecord] = readDecisionRecords((await store.getRun(ticket!.nested!.runId))!);
    expect(childRecord).toMatchObject({
      decidedBy: 'bob',
      channel: 'api',
      shown: { toolName: 'delete_file' },
    });
    expect(parentRecord?.forwardedTo).toEqual({
      runId: ticket!.nested!.runId,
      ticketId: ticket!.nested!.ticketId,
      decisionId: childRecord?.decisionId,
    });
  });
});
