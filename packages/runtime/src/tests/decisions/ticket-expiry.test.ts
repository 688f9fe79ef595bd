import { type AgentEvent, type Plugin, approve, readToolCallStates } from '@awaken/contract';
import { createManualClock, createScriptedModel } from '@awaken/testing';
import { describe, expect, it } from 'vitest';
import { approvalPlugin, recordingTool } from '../../../test-support/approval';
import { collect, createHarness } from '../../../test-support/harness';
import type { AgentDefinition } from '../../types';

const turns = () => [
  { toolCalls: [{ id: 'a', name: 'pay', arguments: { amount: 5 } }] },
  { text: 'moved on' },
];

function setup(options: { toolTimeout?: number; agent?: Partial<AgentDefinition>; plugins?: Plugin[] } = {}) {
  const clock = createManualClock();
  const model = createScriptedModel(turns());
  const pay = recordingTool('pay');
  const tool =
    options.toolTimeout === undefined ? pay.tool : { ...pay.tool, approvalTimeout: options.toolTimeout };
  const harness = createHarness(
    { tools: [tool], plugins: options.plugins ?? [approvalPlugin(['pay'])], ...options.agent },
    { model, now: clock.now },
  );
  return { ...harness, model, clock, pay };
}

async function waitingRun(runtime: ReturnType<typeof setup>['runtime']) {
  const first = await runtime.runToCompletion({ agentId: 'agent', input: 'pay 5' });
  expect(first.status).toBe('waiting');
  return first;
}

describe('a ticket that nobody answers expires', () => {
  it("takes its expiresAt from the tool's approvalTimeout and waits until then", async () => {
    const { runtime, store, clock, model } = setup({ toolTimeout: 60_000 });
    const first = await waitingRun(runtime);
    const [call] = readToolCallStates((await store.getRun(first.runId))!);
    expect(call?.ticket?.expiresAt).toBe(clock.now() + 60_000);
    clock.advance(59_999);
    const early = await runtime.resumeRun(first.runId).result;
    expect(early.status).toBe('waiting');
    expect(model.requests).toHaveLength(1);
  });

  it('past expiresAt, a resume resolves the call as expired: never run, the model told, the run goes on', async () => {
    const { runtime, store, clock, model, pay } = setup({ toolTimeout: 1_000 });
    const first = await waitingRun(runtime);
    clock.advance(1_000);
    const handle = runtime.resumeRun(first.runId);
    const events = await collect(handle);
    const done = await handle.result;
    expect(done).toMatchObject({ status: 'done', response: 'moved on' });
    expect(pay.count()).toBe(0);
    const finished = events.find((event) => event.type === 'tool_call_done') as Extract<
      AgentEvent,
      { type: 'tool_call_done' }
    >;
    expect(finished).toMatchObject({ toolCallId: 'a', status: 'expired', content: { expired: true } });
    const told = model.requests[1]!.messages.find((message) => message.role === 'tool');
    expect(told).toMatchObject({ outcome: 'expired', content: { expired: true } });
    expect(JSON.stringify(told)).toContain('expired before anyone answered');
    const [call] = readToolCallStates((await store.getRun(first.runId))!);
    expect(call?.status).toBe('expired');
  });

  it('a decision after expiresAt is refused ticket_expired and never applied', async () => {
    const { runtime, clock, pay } = setup({ toolTimeout: 1_000 });
    const first = await waitingRun(runtime);
    clock.advance(5_000);
    const late = await runtime.decide(first.runId, approve(first.waiting!.tickets[0]!));
    expect(late.receipts[0]).toMatchObject({ status: 'rejected', reason: 'ticket_expired' });
    await late.handle?.result;
    expect(pay.count()).toBe(0);
    // once the call resolved as expired, an answer is still ticket_expired (the run is done here)
    const again = await runtime.decide(first.runId, approve(first.waiting!.tickets[0]!));
    expect(again.receipts[0]?.status).toBe('rejected');
  });

  it('a decision in time runs the call as usual', async () => {
    const { runtime, clock, pay } = setup({ toolTimeout: 1_000 });
    const first = await waitingRun(runtime);
    clock.advance(999);
    const onTime = await runtime.decide(first.runId, approve(first.waiting!.tickets[0]!));
    expect(onTime.receipts[0]?.status).toBe('accepted');
    expect((await onTime.handle!.result).status).toBe('done');
    expect(pay.count()).toBe(1);
  });

  it("the agent's approvalTimeout is the default; a tool's wins over it; a gate's wins over both", async () => {
    const byAgent = setup({ agent: { approvalTimeout: 30_000 } });
    const a = await waitingRun(byAgent.runtime);
    expect(a.waiting).toBeDefined();
    const [agentCall] = readToolCallStates((await byAgent.store.getRun(a.runId))!);
    expect(agentCall?.ticket?.expiresAt).toBe(byAgent.clock.now() + 30_000);

    const byTool = setup({ toolTimeout: 2_000, agent: { approvalTimeout: 30_000 } });
    const b = await waitingRun(byTool.runtime);
    const [toolCall] = readToolCallStates((await byTool.store.getRun(b.runId))!);
    expect(toolCall?.ticket?.expiresAt).toBe(byTool.clock.now() + 2_000);

    const gate: Plugin = {
      id: 'gate',
      hooks: {
        toolGate: (context) =>
          context.resume
            ? undefined
            : {
                type: 'suspend',
                suspension: { id: 't1', action: 'confirm', message: 'pay?' },
                approvalTimeout: 500,
              },
      },
    };
    const byGate = setup({ toolTimeout: 2_000, plugins: [gate] });
    const c = await waitingRun(byGate.runtime);
    const [gateCall] = readToolCallStates((await byGate.store.getRun(c.runId))!);
    expect(gateCall?.ticket?.expiresAt).toBe(byGate.clock.now() + 500);
  });

  it("onApprovalExpired: 'end_run' ends the run stopped{approval_expired} without asking the model again", async () => {
    const { runtime, clock, model } = setup({ toolTimeout: 1_000, agent: { onApprovalExpired: 'end_run' } });
    const first = await waitingRun(runtime);
    clock.advance(1_000);
    const done = await runtime.resumeRun(first.runId).result;
    expect(done.status).toBe('done');
    expect(done.termination).toMatchObject({ type: 'stopped', code: 'approval_expired' });
    expect(model.requests).toHaveLength(1);
  });

  it('rejects an invalid approvalTimeout when the runtime is created', () => {
    expect(() => setup({ toolTimeout: -1 })).toThrow(/approvalTimeout must be a positive integer/);
    expect(() => setup({ agent: { approvalTimeout: 1.5 } })).toThrow(/approvalTimeout/);
  });
});
