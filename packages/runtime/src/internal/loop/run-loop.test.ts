import type { Plugin } from '@awaken/contract';
import { createScriptedModel, echoTool, failingTool } from '@awaken/testing';
import { describe, expect, it } from 'vitest';
import { collect, createHarness, historyIsValid, outline } from '../../../test-support/harness';

const say = (text: string) => ({ text });
const call = (id: string, name: string, args: unknown) => ({ toolCalls: [{ id, name, arguments: args }] });

describe('run loop', () => {
  it('emits run_start, step, text and run_finish events in order for a text-only run', async () => {
    const { runtime } = createHarness({}, { turns: [say('hello there')] });
    const handle = runtime.run({ agentId: 'agent', input: 'hi' });
    const events = await collect(handle);
    expect(outline(events)).toEqual([
      'run_start',
      'step_start',
      'text_start',
      'text_end',
      'inference_complete',
      'step_end',
      'run_finish',
    ]);
    expect(events.map((event) => event.seq)).toEqual(events.map((_, index) => index + 1));
    const deltas = events.flatMap((event) => (event.type === 'text_delta' ? [event.delta] : []));
    expect(deltas.join('')).toBe('hello there');
    const result = await handle.result;
    expect(result).toMatchObject({
      status: 'done',
      termination: { type: 'natural_end' },
      response: 'hello there',
      steps: 1,
    });
  });

  it('emits tool call events between the inference and the next step for a tool run', async () => {
    const { runtime, store } = createHarness(
      { tools: [echoTool] },
      { turns: [{ reasoning: 'think', ...call('c1', 'echo', { text: 'x' }) }, say('done')] },
    );
    const handle = runtime.run({ agentId: 'agent', input: 'hi' });
    expect(outline(await collect(handle))).toEqual([
      'run_start',
      'step_start',
      'reasoning_start',
      'reasoning_end',
      'tool_call_start',
      'inference_complete',
      'tool_call_ready',
      'tool_call_done',
      'step_end',
      'step_start',
      'text_start',
      'text_end',
      'inference_complete',
      'step_end',
      'run_finish',
    ]);
    const messages = (await store.readMessages(handle.threadId)).map((record) => record.message);
    expect(messages.map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    expect(messages[2]).toMatchObject({ outcome: 'succeeded', content: { echoed: 'x' } });
    expect(historyIsValid(messages)).toBe(true);
  });

  it('runs plugin hooks in the nine-phase order', async () => {
    const seen: string[] = [];
    const record = (name: string) => () => {
      seen.push(name);
    };
    const plugin: Plugin = {
      id: 'recorder',
      hooks: {
        runStart: record('RunStart'),
        stepStart: record('StepStart'),
        beforeInference: record('BeforeInference'),
        afterInference: record('AfterInference'),
        toolGate: () => {
          seen.push('ToolGate');
          return undefined;
        },
        beforeToolExecute: record('BeforeToolExecute'),
        afterToolExecute: record('AfterToolExecute'),
        stepEnd: record('StepEnd'),
        runEnd: record('RunEnd'),
      },
    };
    const { runtime } = createHarness(
      { tools: [echoTool], plugins: [plugin] },
      { turns: [call('c1', 'echo', { text: 'x' }), say('ok')] },
    );
    await runtime.runToCompletion({ agentId: 'agent', input: 'go' });
    expect(seen).toEqual([
      'RunStart',
      'StepStart',
      'BeforeInference',
      'AfterInference',
      'ToolGate',
      'BeforeToolExecute',
      'AfterToolExecute',
      'StepEnd',
      'StepStart',
      'BeforeInference',
      'AfterInference',
      'StepEnd',
      'RunEnd',
    ]);
  });

  it('lets BeforeInference edit the system prompt, tools and options', async () => {
    const model = createScriptedModel([say('ok')]);
    const plugin: Plugin = {
      id: 'editor',
      hooks: {
        beforeInference(context) {
          context.request.system = 'edited system';
          context.request.tools = [];
          context.request.toolChoice = 'none';
          context.request.options.temperature = 0.2;
        },
      },
    };
    const { runtime } = createHarness(
      { systemPrompt: 'original', tools: [echoTool], plugins: [plugin] },
      { model },
    );
    await runtime.runToCompletion({ agentId: 'agent', input: 'go' });
    expect(model.requests[0]).toMatchObject({
      system: 'edited system',
      tools: [],
      toolChoice: 'none',
      options: { temperature: 0.2 },
    });
  });

  it('ends with behavior_requested without calling the model when BeforeInference skips', async () => {
    const model = createScriptedModel([say('never')]);
    const plugin: Plugin = {
      id: 'skip',
      hooks: { beforeInference: (context) => context.skipInference('quota') },
    };
    const { runtime } = createHarness({ plugins: [plugin] }, { model });
    const result = await runtime.runToCompletion({ agentId: 'agent', input: 'go' });
    expect(result.termination).toEqual({ type: 'behavior_requested', detail: 'quota' });
    expect(model.callCount).toBe(0);
  });

  it('lets AfterInference replace the tool calls the round executes', async () => {
    const plugin: Plugin = {
      id: 'rewrite',
      hooks: {
        afterInference(context) {
          if (context.response.toolCalls.length > 0) {
            context.setToolCalls([{ id: 'c2', name: 'echo', arguments: { text: 'rewritten' } }]);
          }
        },
      },
    };
    const { runtime, store } = createHarness(
      { tools: [echoTool], plugins: [plugin] },
      { turns: [call('c1', 'echo', { text: 'original' }), say('ok')] },
    );
    const result = await runtime.runToCompletion({ agentId: 'agent', input: 'go' });
    const messages = (await store.readMessages(result.threadId)).map((record) => record.message);
    expect(messages[1]).toMatchObject({ toolCalls: [{ id: 'c2' }] });
    expect(messages[2]).toMatchObject({ toolCallId: 'c2', content: { echoed: 'rewritten' } });
  });

  it('lets AfterInference terminate after committing the assistant turn, answering its calls', async () => {
    const plugin: Plugin = {
      id: 'stop',
      hooks: { afterInference: (context) => context.terminate('enough') },
    };
    const echo = { ...echoTool, execute: () => expect.unreachable('tool must not run') };
    const { runtime, store } = createHarness(
      { tools: [echo], plugins: [plugin] },
      { turns: [call('c1', 'echo', { text: 'x' })] },
    );
    const result = await runtime.runToCompletion({ agentId: 'agent', input: 'go' });
    expect(result.termination).toEqual({ type: 'behavior_requested', detail: 'enough' });
    const messages = (await store.readMessages(result.threadId)).map((record) => record.message);
    expect(messages.map((message) => message.role)).toEqual(['user', 'assistant', 'tool']);
    expect(messages[2]).toMatchObject({ outcome: 'cancelled' });
    expect(historyIsValid(messages)).toBe(true);
  });

  it('turns an unknown tool, a failing tool and invalid arguments into failed results and continues', async () => {
    const model = createScriptedModel([
      {
        toolCalls: [
          { id: 'u', name: 'nope', arguments: {} },
          { id: 'f', name: 'failing', arguments: { reason: 'kaput' } },
          { id: 'v', name: 'echo', arguments: { text: 42 } },
          { id: 'j', name: 'echo', arguments: '{not json' },
        ],
      },
      say('recovered'),
    ]);
    const { runtime, store } = createHarness({ tools: [echoTool, failingTool] }, { model });
    const result = await runtime.runToCompletion({ agentId: 'agent', input: 'go' });
    expect(result).toMatchObject({ status: 'done', response: 'recovered' });
    const tools = (await store.readMessages(result.threadId)).flatMap((record) =>
      record.message.role === 'tool' ? [record.message] : [],
    );
    expect(tools.map((message) => message.outcome)).toEqual(['failed', 'failed', 'failed', 'failed']);
    expect(JSON.stringify(tools[0]?.content)).toContain('unknown tool');
    expect(JSON.stringify(tools[1]?.content)).toContain('kaput');
    expect(JSON.stringify(tools[2]?.content)).toContain('text');
    expect(JSON.stringify(tools[3]?.content)).toContain('not valid JSON');
    expect(model.requests[1]?.messages.filter((message) => message.role === 'tool')).toHaveLength(4);
  });

  it('sums token usage across steps', async () => {
    const { runtime } = createHarness(
      { tools: [echoTool] },
      {
        turns: [
          { ...call('c1', 'echo', { text: 'a' }), usage: { inputTokens: 100, outputTokens: 7 } },
          { text: 'ok', usage: { inputTokens: 150, outputTokens: 3 } },
        ],
      },
    );
    const result = await runtime.runToCompletion({ agentId: 'agent', input: 'go' });
    expect(result.usage).toMatchObject({ inputTokens: 250, outputTokens: 10, totalTokens: 260 });
  });

  it('ends with error when the model executor fails, keeping the history valid', async () => {
    const model = createScriptedModel([{ error: new Error('provider down') }]);
    const { runtime } = createHarness({}, { model });
    const handle = runtime.run({ agentId: 'agent', input: 'go' });
    const events = await collect(handle);
    const result = await handle.result;
    expect(result.termination).toMatchObject({ type: 'error', message: 'provider down' });
    expect(result.status).toBe('done');
    expect(events.some((event) => event.type === 'error')).toBe(true);
  });

  it('returns the stored answer without a model call when a finished thread is run again', async () => {
    const model = createScriptedModel([say('the answer')]);
    const { runtime } = createHarness({}, { model });
    const first = await runtime.runToCompletion({ agentId: 'agent', threadId: 't1', input: 'q' });
    const again = await runtime.runToCompletion({ agentId: 'agent', threadId: 't1' });
    expect(again).toMatchObject({
      status: 'done',
      termination: { type: 'natural_end' },
      response: first.response,
    });
    expect(model.callCount).toBe(1);
  });
});
