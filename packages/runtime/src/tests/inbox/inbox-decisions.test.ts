import { answer, approve, decisionControl, deny } from '@awaken/contract';
import { createMemoryRunControlInbox } from '@awaken/store-memory';
import type { InferenceRequest } from '@awaken/contract';
import { type ScriptedTurn, createScriptedModel } from '@awaken/testing';
import { describe, expect, it } from 'vitest';
import { approvalPlugin, recordingTool } from '../../../test-support/approval';
import { collect, createHarness, historyIsValid, until } from '../../../test-support/harness';
import { createTestStore } from '../../../test-support/recording-store';

/** The model's turn after `answered` tool results: each process's model answers from the history alone. */
type Script = (answered: number) => ScriptedTurn;

/**
 * Decisions written to the run-control inbox by another process (a server receiving a protocol's
 * approval id, say) name their call the way callers do: by ticket id, tool call id or both. Each
 * harness stands for one process; they share the stores.
 */
function world(script: Script) {
  const store = createTestStore();
  const inbox = createMemoryRunControlInbox();
  const danger = recordingTool('danger');
  const process = () => {
    const model = createScriptedModel((request: InferenceRequest) =>
      script(request.messages.filter((message) => message.role === 'tool').length),
    );
    const harness = createHarness(
      { tools: [danger.tool], plugins: [approvalPlugin(['danger'])] },
      { model, store, inbox },
    );
    return { ...harness, model };
  };
  return { store, inbox, danger, process };
}

const oneCall: Script = (answered) =>
  answered === 0 ? { toolCalls: [{ id: 'a', name: 'danger', arguments: { path: '/x' } }] } : { text: 'ok' };

describe('decisions from the run-control inbox', () => {
  it('a decision naming only the ticket wakes a live waiting run, which applies it to that call', async () => {
    const w = world(oneCall);
    const { runtime } = w.process();
    const handle = runtime.run({ agentId: 'agent', runId: 'r', input: 'go', onSuspend: 'wait' });
    await until(async () => (await w.store.getRun('r'))?.status === 'waiting');
    const ticket = (await w.store.getRun('r'))!.waiting!.tickets[0]!;
    expect(await w.inbox.put('r', decisionControl(approve(ticket.ticketId, { decisionId: 'd1' })))).toBe(
      'stored',
    );
    expect(await handle.result).toMatchObject({ status: 'done', response: 'ok' });
    expect(w.danger.calls).toEqual([{ callId: 'a', args: { path: '/x' } }]);
    expect(await w.inbox.peek('r')).toEqual([]);
  });

  it('a cold resume reads a ticket-named decision from the inbox and applies it once', async () => {
    const w = world(oneCall);
    const waiting = await w.process().runtime.runToCompletion({ agentId: 'agent', runId: 'r', input: 'go' });
    const ticketId = waiting.waiting!.tickets[0]!.ticketId;
    await w.inbox.put('r', decisionControl(approve(ticketId, { decisionId: 'd1' })));
    const cold = w.process();
    const events = await collect(cold.runtime.resumeRun('r'));
    const resumed = events.find((event) => event.type === 'tool_call_resumed');
    // the applied decision names the call it resolved to and the ticket it answered
    expect(resumed).toMatchObject({ toolCallId: 'a', decision: { toolCallId: 'a', ticketId } });
    expect(await w.store.getRun('r')).toMatchObject({ status: 'done', response: 'ok' });
    expect(w.danger.count('a')).toBe(1);
    expect(await w.inbox.peek('r')).toEqual([]);
  });

  it('a decision bound to a ticket that no longer waits is rejected, never applied to a call reusing the id', async () => {
    // the model reuses the tool call id `a` in its second turn
    const paths = ['scratch/notes.txt', '/etc/passwd'];
    const w = world((answered) => {
      const path = paths[answered];
      return path ? { toolCalls: [{ id: 'a', name: 'danger', arguments: { path } }] } : { text: 'done' };
    });
    const first = await w.process().runtime.runToCompletion({ agentId: 'agent', runId: 'r', input: 'go' });
    const oldTicket = first.waiting!.tickets[0]!;
    const second = await w
      .process()
      .runtime.resumeRun('r', { decisions: [approve(oldTicket, { decisionId: 'd1' })] }).result;
    const newTicket = second.waiting!.tickets[0]!;
    expect(newTicket.toolCallId).toBe('a');
    expect(newTicket.ticketId).not.toBe(oldTicket.ticketId);

    // a stale approval of the first call arrives through the inbox, bound to its old ticket
    await w.inbox.put('r', decisionControl(approve(oldTicket, { decisionId: 'stale' })));
    const events = await collect(w.process().runtime.resumeRun('r'));
    expect(events).toContainEqual(expect.objectContaining({ type: 'error', code: 'decision_rejected' }));
    expect(w.danger.calls).toEqual([{ callId: 'a', args: { path: 'scratch/notes.txt' } }]);
    expect(await w.store.getRun('r')).toMatchObject({ status: 'waiting' });
    expect(await w.inbox.peek('r')).toEqual([]);
  });

  it('deny and edited arguments sent through the inbox hold: a refusal never runs, an edit runs as edited', async () => {
    const denied = world(oneCall);
    const waiting = await denied
      .process()
      .runtime.runToCompletion({ agentId: 'agent', runId: 'r', input: 'go' });
    await denied.inbox.put('r', decisionControl(deny(waiting.waiting!.tickets[0]!.ticketId, 'not today')));
    const cold = denied.process();
    expect(await cold.runtime.resumeRun('r').result).toMatchObject({ status: 'done', response: 'ok' });
    expect(denied.danger.count()).toBe(0);
    expect(cold.model.requests[0]!.messages.at(-1)).toMatchObject({ role: 'tool', outcome: 'cancelled' });
    expect(historyIsValid(cold.model.requests[0]!.messages)).toBe(true);

    const edited = world(oneCall);
    const { runtime } = edited.process();
    const handle = runtime.run({ agentId: 'agent', runId: 'r', input: 'go', onSuspend: 'wait' });
    await until(async () => (await edited.store.getRun('r'))?.status === 'waiting');
    const ticketId = (await edited.store.getRun('r'))!.waiting!.tickets[0]!.ticketId;
    await edited.inbox.put('r', decisionControl(approve(ticketId, { editedArguments: { path: '/tmp/y' } })));
    expect(await handle.result).toMatchObject({ status: 'done' });
    expect(edited.danger.calls).toEqual([{ callId: 'a', args: { path: '/tmp/y' } }]);
  });

  it("a client tool's output sent through the inbox by ticket becomes its result, hot or cold", async () => {
    const location = {
      name: 'get_location',
      description: 'Reads the browser location.',
      parameters: { type: 'object', properties: { precision: { type: 'string' } } },
    };
    const script: Script = (answered) =>
      answered === 0
        ? { toolCalls: [{ id: 'loc', name: 'get_location', arguments: { precision: 'city' } }] }
        : { text: 'You are in Paris.' };
    for (const mode of ['hot', 'cold'] as const) {
      const w = world(script);
      const first = w.process();
      const request = { agentId: 'agent', runId: 'r', input: 'where am I?', tools: [location] };
      const handle = first.runtime.run({ ...request, onSuspend: mode === 'hot' ? 'wait' : 'return' });
      await until(async () => (await w.store.getRun('r'))?.status === 'waiting');
      const ticketId = (await w.store.getRun('r'))!.waiting!.tickets[0]!.ticketId;
      await w.inbox.put('r', decisionControl(answer(ticketId, { city: 'Paris' })));
      let model = first.model;
      if (mode === 'cold') {
        await handle.result;
        const cold = w.process();
        model = cold.model;
        await cold.runtime.resumeRun('r').result;
      } else {
        await handle.result;
      }
      expect(await w.store.getRun('r'), mode).toMatchObject({
        status: 'done',
        response: 'You are in Paris.',
      });
      expect(model.requests.at(-1)!.messages.at(-1), mode).toMatchObject({
        role: 'tool',
        toolCallId: 'loc',
        outcome: 'succeeded',
        content: { city: 'Paris' },
      });
    }
  });
});
