import {
  AwakenError,
  CLIENT_TOOL_ACTION,
  type Plugin,
  answer,
  defineTool,
  isClientToolTicket,
  toolPending,
} from '@awaken/contract';
import { createScriptedModel, echoTool } from '@awaken/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { collect, createHarness } from '../../../test-support/harness';

const weather = {
  name: 'get_location',
  description: 'Reads the browser location.',
  parameters: {
    type: 'object',
    properties: { precision: { enum: ['city', 'exact'] } },
    required: ['precision'],
  },
};

const askLocation = (args: unknown) => ({
  toolCalls: [{ id: 'loc', name: 'get_location', arguments: args }],
});

function expectCode(run: () => unknown, code: string, mention: RegExp) {
  let caught: unknown;
  try {
    run();
  } catch (error) {
    caught = error;
  }
  expect(AwakenError.hasCode(caught, code as never)).toBe(true);
  expect((caught as Error).message).toMatch(mention);
}

describe('client tools (RunRequest.tools)', () => {
  it('a call suspends with a client-tool ticket; the client output resumes it, hot or cold', async () => {
    const model = createScriptedModel([askLocation({ precision: 'city' }), { text: 'You are in Paris.' }]);
    const { runtime, store } = createHarness({ tools: [echoTool] }, { model });
    const handle = runtime.run({ agentId: 'agent', runId: 'r', input: 'where am I?', tools: [weather] });
    const events = await collect(handle);
    const first = await handle.result;
    expect(first.status).toBe('waiting');
    expect(model.requests[0]!.tools.map((tool) => tool.name)).toEqual(['echo', 'get_location']);
    const suspended = events.find((event) => event.type === 'tool_call_suspended');
    expect(suspended?.type === 'tool_call_suspended' && isClientToolTicket(suspended.ticket)).toBe(true);
    const ticket = first.waiting!.tickets[0]!;
    expect(isClientToolTicket(ticket)).toBe(true);
    expect(ticket).toMatchObject({
      toolCallId: 'loc',
      toolName: 'get_location',
      arguments: { precision: 'city' },
      resumeMode: 'use_decision_as_tool_result',
    });
    // a fresh runtime (cold) still knows the run's client tools: they are stored with the run
    const cold = createHarness({ tools: [echoTool] }, { model, store });
    const done = await cold.runtime.resumeRun('r', { decisions: [answer(ticket, { city: 'Paris' })] }).result;
    expect(done).toMatchObject({ status: 'done', response: 'You are in Paris.' });
    expect(model.requests[1]!.tools.map((tool) => tool.name)).toEqual(['echo', 'get_location']);
    expect(model.requests[1]!.messages.at(-1)).toMatchObject({
      role: 'tool',
      toolCallId: 'loc',
      outcome: 'succeeded',
      content: { city: 'Paris' },
    });
  });

  it('arguments failing the client tool JSON Schema fail the call without asking the client', async () => {
    const model = createScriptedModel([askLocation({ precision: 'street' }), { text: 'sorry' }]);
    const { runtime } = createHarness({}, { model });
    const result = await runtime.runToCompletion({ agentId: 'agent', input: 'where?', tools: [weather] });
    expect(result).toMatchObject({ status: 'done', response: 'sorry' });
    const tool = model.requests[1]!.messages.at(-1);
    expect(tool).toMatchObject({ role: 'tool', outcome: 'failed' });
    expect(JSON.stringify(tool)).toContain('precision');
  });

  it('checks for unknown tools after ToolGate, so a plugin can suspend a call to a tool the server lacks', async () => {
    const relay: Plugin = {
      id: 'relay',
      hooks: {
        toolGate: (context) =>
          context.call.name === 'remote_lookup' && !context.resume
            ? {
                type: 'suspend',
                suspension: {
                  id: `relay_${context.step}:${context.call.id}`,
                  action: 'relay',
                  message: 'run elsewhere',
                },
                resumeMode: 'use_decision_as_tool_result',
              }
            : undefined,
      },
    };
    const model = createScriptedModel([
      {
        toolCalls: [
          { id: 'x', name: 'remote_lookup', arguments: {} },
          { id: 'y', name: 'nowhere', arguments: {} },
        ],
      },
      { text: 'ok' },
    ]);
    const { runtime } = createHarness({ plugins: [relay], toolExecution: 'parallel' }, { model });
    const first = await runtime.runToCompletion({ agentId: 'agent', runId: 'r', input: 'go' });
    expect(first.waiting?.tickets.map((ticket) => ticket.toolCallId)).toEqual(['x']);
    const done = await runtime.resumeRun('r', { decisions: [answer(first.waiting!.tickets[0]!, 42)] }).result;
    expect(done.status).toBe('done');
    const tools = model.requests[1]!.messages.filter((message) => message.role === 'tool');
    expect(tools).toMatchObject([
      { toolCallId: 'x', outcome: 'succeeded', content: 42 },
      { toolCallId: 'y', outcome: 'failed' },
    ]);
    expect(JSON.stringify(tools[1])).toContain('unknown tool');
  });

  it('refuses malformed client tools and a name a server tool already has', () => {
    const { runtime } = createHarness({ tools: [echoTool] }, { turns: [] });
    expectCode(
      () => runtime.run({ agentId: 'agent', input: 'go', tools: [{ ...weather, name: 'echo' }] }),
      'validation_failed',
      /tools\[0\] "echo" shadows a server-executed tool/,
    );
    expectCode(
      () => runtime.run({ agentId: 'agent', input: 'go', tools: [{ name: '', parameters: {} } as never] }),
      'validation_failed',
      /tools/,
    );
    expectCode(
      () => runtime.run({ agentId: 'agent', input: 'go', tools: [weather, weather] }),
      'validation_failed',
      /twice/,
    );
  });

  it("a request may declare the agent's own client tool (clientTool: true): the agent's declaration wins", async () => {
    const pick = defineTool({
      name: 'pick',
      description: 'the agent says: pick one of the options',
      parameters: z.object({ options: z.array(z.string()) }),
      clientTool: true,
      execute: (_args, context) =>
        toolPending(
          { id: `client:${context.toolCallId}`, action: CLIENT_TOOL_ACTION, message: 'pick' },
          'use_decision_as_tool_result',
        ),
    });
    const model = createScriptedModel([
      { toolCalls: [{ id: 'p', name: 'pick', arguments: { options: ['a', 'b'] } }] },
      { text: 'picked' },
    ]);
    const { runtime } = createHarness({ tools: [echoTool, pick] }, { model });
    const declared = { name: 'pick', description: 'the client says', parameters: { type: 'object' } };
    const first = await runtime.runToCompletion({
      agentId: 'agent',
      runId: 'r',
      input: 'go',
      tools: [declared],
    });
    // the model sees the tool once, as the agent declared it
    expect(model.requests[0]!.tools.filter((tool) => tool.name === 'pick')).toMatchObject([
      { description: 'the agent says: pick one of the options' },
    ]);
    const ticket = first.waiting!.tickets[0]!;
    expect(isClientToolTicket(ticket)).toBe(true);
    const done = await runtime.resumeRun('r', { decisions: [answer(ticket, 'a')] }).result;
    expect(done).toMatchObject({ status: 'done', response: 'picked' });
    expectCode(
      () => runtime.run({ agentId: 'agent', input: 'go', tools: [declared, declared] }),
      'validation_failed',
      /twice/,
    );
  });
});
