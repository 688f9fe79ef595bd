import {
  type AgentEvent,
  type InferenceRequest,
  type Message,
  type Plugin,
  agentEventSchema,
  defineStateKey,
} from '@awaken/contract';
import { createMemoryStores } from '@awaken/store-memory';
import { type ScriptedTurn, countExecutions, createScriptedModel, echoTool } from '@awaken/testing';
import { describe, expect, it } from 'vitest';
import { approvalPlugin, recordingTool } from '../../../test-support/approval';
import { activations, framingViolations } from '../../../test-support/framing';
import { approve, collect, storedRun } from '../../../test-support/harness';
import { createAgentRuntime } from '../../create-agent-runtime';
import { handoffTool } from '../../handoff-tool';
import type { AgentDefinition } from '../../types';

const TRIAGE = 'You are triage.';
const BILLING = 'You are billing.';
const SUPPORT = 'You are support.';

const toolNames = (request: Omit<InferenceRequest, 'signal'>) =>
  (request.tools ?? []).map((tool) => tool.name);
const handoffs = (events: readonly AgentEvent[]) => events.filter((event) => event.type === 'handoff');
const lastMessage = (request: InferenceRequest): Message | undefined => request.messages.at(-1);

function runtimeOver(
  stores: ReturnType<typeof createMemoryStores>,
  agents: AgentDefinition[],
  model: ReturnType<typeof createScriptedModel>,
) {
  let counter = 0;
  return createAgentRuntime({
    agents,
    stores: { threadRuns: stores.threadRuns, eventLog: stores.eventLog },
    model,
    createId: () => `id_${++counter}`,
  });
}

describe('handoff', () => {
  it('continues the run with the target agent from the next step, recorded in events and record', async () => {
    const stores = createMemoryStores();
    const lookup = countExecutions(echoTool);
    const refund = recordingTool('refund');
    const model = createScriptedModel((request): ScriptedTurn => {
      if (request.system === TRIAGE) {
        return {
          toolCalls: [
            { id: 'h', name: 'transfer_to_billing', arguments: { reason: 'an invoice question' } },
            { id: 'e', name: 'echo', arguments: { text: 'same step' } },
            { id: 'x', name: 'refund', arguments: {} },
          ],
        };
      }
      return { text: 'Billing here.' };
    });
    const runtime = runtimeOver(
      stores,
      [
        { id: 'triage', systemPrompt: TRIAGE, tools: [handoffTool('billing'), lookup.tool] },
        { id: 'billing', systemPrompt: BILLING, tools: [refund.tool] },
      ],
      model,
    );
    const handle = runtime.run({ agentId: 'triage', runId: 'r', input: 'my invoice is wrong' });
    const events = await collect(handle);
    const result = await handle.result;

    expect(result).toMatchObject({ status: 'done', response: 'Billing here.', steps: 2 });
    expect(model.requests.map((request) => request.system)).toEqual([TRIAGE, BILLING]);
    expect(toolNames(model.requests[0]!)).toEqual(['transfer_to_billing', 'echo']);
    expect(toolNames(model.requests[1]!)).toEqual(['refund']);
    // the rest of the step ran under triage: its echo ran, billing's refund was unknown there
    expect(lookup.count('e')).toBe(1);
    expect(refund.count('x')).toBe(0);
    const done = events.filter((event) => event.type === 'tool_call_done');
    expect(done.map((event) => [event.toolCallId, event.status])).toEqual([
      ['h', 'succeeded'],
      ['e', 'succeeded'],
      ['x', 'failed'],
    ]);
    expect(done[0]?.content).toMatchObject({ transferredTo: 'billing' });

    const handoff = { fromAgentId: 'triage', toAgentId: 'billing', toolCallId: 'h', step: 1 };
    expect(handoffs(events)).toEqual([
      expect.objectContaining({ ...handoff, reason: 'an invoice question' }),
    ]);
    const at = events.findIndex((event) => event.type === 'handoff');
    expect(events[at - 1]).toMatchObject({ type: 'step_end', step: 1 });
    expect(events[at + 1]).toMatchObject({ type: 'step_start', step: 2 });
    for (const event of events) agentEventSchema.parse(event);
    for (const activation of activations(events)) expect(framingViolations(activation)).toEqual([]);
    expect(handoffs(await stores.eventLog.read('r'))).toEqual(handoffs(events));

    const record = await storedRun(stores.threadRuns, 'r');
    expect(record).toMatchObject({ agentId: 'triage', activeAgentId: 'billing' });
    expect(record.handoffs).toEqual([{ ...handoff, reason: 'an invoice question', at: expect.any(Number) }]);
  });

  it('resumes a handed-off run suspended on the target’s approval in a new runtime, under the target', async () => {
    const stores = createMemoryStores();
    const triageEcho = countExecutions(echoTool);
    const billingEcho = countExecutions(echoTool);
    const refund = recordingTool('refund');
    const agents: AgentDefinition[] = [
      {
        id: 'triage',
        systemPrompt: TRIAGE,
        tools: [handoffTool('billing'), triageEcho.tool],
        // triage asks before echo; billing does not: a handoff inherits no rule
        plugins: [approvalPlugin(['echo'])],
      },
      {
        id: 'billing',
        systemPrompt: BILLING,
        tools: [refund.tool, billingEcho.tool],
        plugins: [approvalPlugin(['refund'])],
      },
    ];
    const model = createScriptedModel((request): ScriptedTurn => {
      if (request.system === TRIAGE) return { toolCalls: [{ id: 'h', name: 'transfer_to_billing' }] };
      const last = lastMessage(request);
      if (last?.role === 'tool' && last.toolCallId === 'h') {
        return {
          toolCalls: [
            { id: 'e', name: 'echo', arguments: { text: 'no question' } },
            { id: 'f', name: 'refund', arguments: { invoice: 42 } },
          ],
        };
      }
      return { text: 'Refunded.' };
    });

    const first = runtimeOver(stores, agents, model);
    const waiting = await first.runToCompletion({ agentId: 'triage', runId: 'r', input: 'refund 42' });
    expect(waiting.status).toBe('waiting');
    expect(waiting.waiting?.tickets.map((ticket) => ticket.toolName)).toEqual(['refund']);
    expect(billingEcho.count('e')).toBe(1);
    expect(await storedRun(stores.threadRuns, 'r')).toMatchObject({
      agentId: 'triage',
      activeAgentId: 'billing',
      status: 'waiting',
    });

    const second = runtimeOver(stores, agents, model);
    const handle = second.resumeRun('r', { decisions: [approve('f')] });
    const events = await collect(handle);
    expect(await handle.result).toMatchObject({ status: 'done', response: 'Refunded.' });
    expect(events[0]).toMatchObject({ type: 'run_start', agentId: 'billing', resumed: true });
    expect(handoffs(events)).toEqual([]);
    expect(refund.count('f')).toBe(1);
    expect([triageEcho.count(), billingEcho.count('e')]).toEqual([0, 1]);
    expect(model.callCount).toBe(3);
    expect(model.requests[2]?.system).toBe(BILLING);
  });

  it('no longer offers the old agent’s tools, and a call to one fails without running', async () => {
    const stores = createMemoryStores();
    const lookup = countExecutions(echoTool);
    const model = createScriptedModel([
      { toolCalls: [{ id: 'h', name: 'transfer_to_billing' }] },
      { toolCalls: [{ id: 'e', name: 'echo', arguments: { text: 'still there?' } }] },
      { text: 'I cannot echo.' },
    ]);
    const runtime = runtimeOver(
      stores,
      [
        { id: 'triage', systemPrompt: TRIAGE, tools: [handoffTool('billing'), lookup.tool] },
        { id: 'billing', systemPrompt: BILLING },
      ],
      model,
    );
    const handle = runtime.run({ agentId: 'triage', input: 'hi' });
    const events = await collect(handle);
    expect((await handle.result).response).toBe('I cannot echo.');
    expect(toolNames(model.requests[1]!)).toEqual([]);
    expect(lookup.count()).toBe(0);
    const done = events.find((event) => event.type === 'tool_call_done' && event.toolCallId === 'e');
    expect(done).toMatchObject({ status: 'failed', result: { message: 'unknown tool "echo"' } });
  });

  it('refuses a handoff to an unknown agent or to the agent itself when the runtime is created', () => {
    const model = createScriptedModel();
    const stores = createMemoryStores();
    expect(() =>
      runtimeOver(stores, [{ id: 'triage', tools: [handoffTool('nobody')] }, { id: 'billing' }], model),
    ).toThrow(
      expect.objectContaining({
        code: 'invalid_config',
        message: expect.stringContaining(
          'agent "triage" tool "transfer_to_nobody" hands off to unknown agent "nobody"',
        ),
      }),
    );
    expect(() => runtimeOver(stores, [{ id: 'triage', tools: [handoffTool('triage')] }], model)).toThrow(
      expect.objectContaining({
        code: 'invalid_config',
        message: 'agent "triage" tool "transfer_to_triage" hands off to "triage" itself',
      }),
    );
    expect(() => handoffTool('')).toThrow(expect.objectContaining({ code: 'invalid_config' }));
  });

  it.each(['sequential', 'parallel'] as const)(
    'lets only the first of two handoffs in one step take effect (%s executor)',
    async (toolExecution) => {
      const stores = createMemoryStores();
      const model = createScriptedModel((request): ScriptedTurn => {
        if (request.system === TRIAGE) {
          return {
            toolCalls: [
              { id: 'b', name: 'transfer_to_billing' },
              { id: 's', name: 'transfer_to_support' },
            ],
          };
        }
        return { text: `${request.system} answering` };
      });
      const runtime = runtimeOver(
        stores,
        [
          {
            id: 'triage',
            systemPrompt: TRIAGE,
            tools: [handoffTool('billing'), handoffTool('support')],
            toolExecution,
          },
          { id: 'billing', systemPrompt: BILLING },
          { id: 'support', systemPrompt: SUPPORT },
        ],
        model,
      );
      const handle = runtime.run({ agentId: 'triage', runId: 'r', input: 'help' });
      const events = await collect(handle);
      expect((await handle.result).response).toBe(`${BILLING} answering`);
      const done = events.filter((event) => event.type === 'tool_call_done');
      expect(done.map((event) => [event.toolCallId, event.status])).toEqual([
        ['b', 'succeeded'],
        ['s', 'failed'],
      ]);
      expect(done[1]?.result).toMatchObject({
        message: expect.stringContaining('already transferred the conversation to agent "billing" (call b)'),
      });
      expect(handoffs(events)).toEqual([expect.objectContaining({ toAgentId: 'billing', toolCallId: 'b' })]);
      const record = await storedRun(stores.threadRuns, 'r');
      expect(record.activeAgentId).toBe('billing');
      expect(record.handoffs?.map((handoff) => handoff.toAgentId)).toEqual(['billing']);
    },
  );

  it('hands off only once the step ends: a call of the step waiting for approval keeps the agent', async () => {
    const stores = createMemoryStores();
    const danger = recordingTool('danger');
    const agents: AgentDefinition[] = [
      {
        id: 'triage',
        systemPrompt: TRIAGE,
        tools: [handoffTool('billing'), danger.tool],
        plugins: [approvalPlugin(['danger'])],
      },
      { id: 'billing', systemPrompt: BILLING },
    ];
    const model = createScriptedModel((request): ScriptedTurn => {
      if (request.system === TRIAGE) {
        return {
          toolCalls: [
            { id: 'h', name: 'transfer_to_billing' },
            { id: 'd', name: 'danger', arguments: {} },
          ],
        };
      }
      return { text: 'Billing took over.' };
    });
    const first = runtimeOver(stores, agents, model);
    const handle = first.run({ agentId: 'triage', runId: 'r', input: 'go' });
    const waitingEvents = await collect(handle);
    expect((await handle.result).status).toBe('waiting');
    expect(handoffs(waitingEvents)).toEqual([]);
    const waiting = await storedRun(stores.threadRuns, 'r');
    expect(waiting.activeAgentId).toBeUndefined();

    const second = runtimeOver(stores, agents, model);
    const resumed = second.resumeRun('r', { decisions: [approve('d')] });
    const events = await collect(resumed);
    expect(await resumed.result).toMatchObject({ status: 'done', response: 'Billing took over.' });
    expect(events[0]).toMatchObject({ type: 'run_start', agentId: 'triage' });
    expect(danger.count('d')).toBe(1);
    expect(handoffs(events)).toEqual([
      expect.objectContaining({ toAgentId: 'billing', toolCallId: 'h', step: 1 }),
    ]);
    expect(model.requests.map((request) => request.system)).toEqual([TRIAGE, BILLING]);
    expect((await storedRun(stores.threadRuns, 'r')).activeAgentId).toBe('billing');
  });

  it('transfers nothing for a handoff call a ToolGate resolved without running it', async () => {
    const stores = createMemoryStores();
    const answering: Plugin = {
      id: 'answering',
      hooks: {
        toolGate: (context) =>
          context.call.name === 'transfer_to_billing'
            ? { type: 'set_result', result: { status: 'success', output: { transferredTo: 'billing' } } }
            : undefined,
      },
    };
    const model = createScriptedModel((request): ScriptedTurn => {
      const last = lastMessage(request);
      if (last?.role === 'user') return { toolCalls: [{ id: 'h', name: 'transfer_to_billing' }] };
      return { text: `${request.system} answering` };
    });
    const runtime = runtimeOver(
      stores,
      [
        { id: 'triage', systemPrompt: TRIAGE, tools: [handoffTool('billing')], plugins: [answering] },
        { id: 'billing', systemPrompt: BILLING },
      ],
      model,
    );
    const handle = runtime.run({ agentId: 'triage', runId: 'r', input: 'go' });
    const events = await collect(handle);
    expect((await handle.result).response).toBe(`${TRIAGE} answering`);
    expect(handoffs(events)).toEqual([]);
    expect((await storedRun(stores.threadRuns, 'r')).activeAgentId).toBeUndefined();
  });

  it('runs no RunStart or RunEnd at the handoff: the target’s plugins see the RunEnd of the activation', async () => {
    const seen: string[] = [];
    const lifecycle = (agentId: string): Plugin => ({
      id: 'lifecycle',
      hooks: {
        runStart: () => void seen.push(`${agentId}:runStart`),
        stepStart: (context) => void seen.push(`${agentId}:stepStart:${context.step}`),
        runEnd: () => void seen.push(`${agentId}:runEnd`),
      },
    });
    const model = createScriptedModel([
      { toolCalls: [{ id: 'h', name: 'transfer_to_billing' }] },
      { text: 'ok' },
    ]);
    const runtime = runtimeOver(
      createMemoryStores(),
      [
        { id: 'triage', tools: [handoffTool('billing')], plugins: [lifecycle('triage')] },
        { id: 'billing', plugins: [lifecycle('billing')] },
      ],
      model,
    );
    await runtime.runToCompletion({ agentId: 'triage', input: 'go' });
    expect(seen).toEqual(['triage:runStart', 'triage:stepStart:1', 'billing:stepStart:2', 'billing:runEnd']);
  });

  it('records a handoff of the step a stop condition ends the run at', async () => {
    const stores = createMemoryStores();
    const model = createScriptedModel([{ toolCalls: [{ id: 'h', name: 'transfer_to_billing' }] }]);
    const runtime = runtimeOver(
      stores,
      [
        {
          id: 'triage',
          tools: [handoffTool('billing')],
          stopConditions: [{ type: 'max_rounds', rounds: 1 }],
        },
        { id: 'billing' },
      ],
      model,
    );
    const handle = runtime.run({ agentId: 'triage', runId: 'r', input: 'go' });
    const events = await collect(handle);
    expect((await handle.result).termination).toMatchObject({ type: 'stopped', code: 'max_rounds' });
    expect(events.slice(-3).map((event) => event.type)).toEqual(['step_end', 'handoff', 'run_finish']);
    expect((await storedRun(stores.threadRuns, 'r')).activeAgentId).toBe('billing');
    expect(model.callCount).toBe(1);
  });

  it('starts the target’s run-scoped plugin state afresh and keeps the thread-scoped state', async () => {
    const runCount = defineStateKey({ name: 'count', scope: 'run', persistent: true, initial: () => 0 });
    const threadCount = defineStateKey({
      name: 'count',
      scope: 'thread',
      persistent: true,
      initial: () => 0,
    });
    const seen: Array<[string, number, number]> = [];
    const counting = (): Plugin => ({
      id: 'counting',
      stateKeys: [runCount, threadCount],
      hooks: {
        beforeInference(context) {
          const run = context.state.update(runCount, (count) => count + 1);
          const thread = context.state.update(threadCount, (count) => count + 1);
          seen.push([context.agentId, run, thread]);
        },
      },
    });
    const stores = createMemoryStores();
    const model = createScriptedModel([
      { toolCalls: [{ id: 'h', name: 'transfer_to_billing' }] },
      { text: 'done' },
    ]);
    const runtime = runtimeOver(
      stores,
      [
        { id: 'triage', tools: [handoffTool('billing')], plugins: [counting()] },
        { id: 'billing', plugins: [counting()] },
      ],
      model,
    );
    const result = await runtime.runToCompletion({
      agentId: 'triage',
      runId: 'r',
      threadId: 't',
      input: 'go',
    });
    expect(result.status).toBe('done');
    expect(seen).toEqual([
      ['triage', 1, 1],
      ['billing', 1, 2],
    ]);
    expect((await storedRun(stores.threadRuns, 'r')).state['run:count']).toBe(1);
    expect(await stores.threadRuns.getThreadState('t')).toMatchObject({ 'thread:count': 2 });
  });

  it('lets the target’s own tool win over a client tool of the same name the request declared', async () => {
    const stores = createMemoryStores();
    const lookup = countExecutions(echoTool);
    const model = createScriptedModel((request): ScriptedTurn => {
      if (request.system === TRIAGE) return { toolCalls: [{ id: 'h', name: 'transfer_to_billing' }] };
      const last = lastMessage(request);
      if (last?.role === 'tool' && last.toolCallId === 'h')
        return { toolCalls: [{ id: 'e', name: 'echo', arguments: { text: 'server' } }] };
      return { text: 'echoed' };
    });
    const runtime = runtimeOver(
      stores,
      [
        { id: 'triage', systemPrompt: TRIAGE, tools: [handoffTool('billing')] },
        { id: 'billing', systemPrompt: BILLING, tools: [lookup.tool] },
      ],
      model,
    );
    const clientEcho = { name: 'echo', description: 'client echo', parameters: { type: 'object' } };
    const result = await runtime.runToCompletion({ agentId: 'triage', input: 'go', tools: [clientEcho] });
    expect(result).toMatchObject({ status: 'done', response: 'echoed' });
    expect(lookup.count('e')).toBe(1);
    expect(toolNames(model.requests[0]!)).toEqual(['transfer_to_billing', 'echo']);
    expect(model.requests[1]?.tools?.filter((tool) => tool.name === 'echo')).toEqual([
      expect.objectContaining({ description: echoTool.description }),
    ]);
  });
});
