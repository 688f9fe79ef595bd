import {
  type AgentEvent,
  type Message,
  type StandardSchemaLike,
  type ToolExecuteContext,
  jsonSchemaInput,
  toolPending,
} from '@awaken/contract';
import { createScriptedModel, echoTool } from '@awaken/testing';
import { asSchema, jsonSchema as jsonSchemaV6, tool as toolV6 } from 'ai';
import { jsonSchema as jsonSchemaV7, tool as toolV7 } from 'ai-v7';
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { approve, collect, createHarness } from '../../../test-support/harness';
import type { AgentDefinition } from '../../types';

const call = (name: string, args: unknown, id = 'call_1') => ({
  toolCalls: [{ id, name, arguments: args }],
});

function doneOf(events: readonly AgentEvent[], toolCallId = 'call_1') {
  return events.find(
    (event): event is Extract<AgentEvent, { type: 'tool_call_done' }> =>
      event.type === 'tool_call_done' && event.toolCallId === toolCallId,
  );
}

async function runOnce(tools: AgentDefinition['tools'], args: unknown, name = 'weather') {
  const model = createScriptedModel([call(name, args), { text: 'done' }]);
  const { runtime } = createHarness({ tools }, { model });
  const handle = runtime.run({ agentId: 'agent', input: 'What is the weather in Paris?' });
  const events = await collect(handle);
  return { result: await handle.result, events, model };
}

describe('AI SDK tool definitions, accepted as they are', () => {
  it('runs an AI SDK 6 tool() from a record keyed by name, with execute(input, { toolCallId, messages, abortSignal })', async () => {
    const seen: Array<{ input: unknown; toolCallId: string; signal: boolean; messages: Message[] }> = [];
    const weather = toolV6({
      description: 'Current weather of a city',
      inputSchema: z.object({ city: z.string() }),
      execute: async (input, { toolCallId, messages, abortSignal }) => {
        seen.push({
          input,
          toolCallId,
          signal: abortSignal instanceof AbortSignal,
          messages: messages as unknown as Message[],
        });
        return { city: input.city, celsius: 21 };
      },
    });
    const definition: AgentDefinition = { id: 'agent', tools: { weather } };
    const { result, events, model } = await runOnce(definition.tools, { city: 'Paris' });
    expect(result).toMatchObject({ status: 'done', response: 'done' });
    expect(model.requests[0]?.tools).toEqual([
      expect.objectContaining({ name: 'weather', description: 'Current weather of a city' }),
    ]);
    expect(seen).toEqual([
      { input: { city: 'Paris' }, toolCallId: 'call_1', signal: true, messages: expect.any(Array) },
    ]);
    expect(seen[0]?.messages[0]).toEqual({ role: 'user', content: 'What is the weather in Paris?' });
    expect(doneOf(events)).toMatchObject({ status: 'succeeded', result: { output: { celsius: 21 } } });
  });

  it('runs an AI SDK 7 tool() whose input is a jsonSchema(), enforcing the JSON Schema before execute', async () => {
    let executions = 0;
    const weather = toolV7({
      description: 'Current weather of a city',
      inputSchema: jsonSchemaV7<{ city: string }>({
        type: 'object',
        properties: { city: { type: 'string', minLength: 2 } },
        required: ['city'],
        additionalProperties: false,
      }),
      execute: async ({ city }) => {
        executions += 1;
        return `sunny in ${city}`;
      },
    });
    const bad = await runOnce({ weather }, { city: 'P', extra: true });
    const failed = doneOf(bad.events);
    expect(failed?.status).toBe('failed');
    expect(JSON.stringify(failed?.result)).toMatch(
      /invalid arguments: .*city.*extra|invalid arguments: .*extra.*city/,
    );
    expect(executions).toBe(0);
    const good = await runOnce({ weather }, { city: 'Paris' });
    expect(doneOf(good.events)).toMatchObject({ status: 'succeeded', result: { output: 'sunny in Paris' } });
    expect(good.model.requests[0]?.tools[0]?.parameters).toMatchObject({ required: ['city'] });
  });

  it('runs the validate of an AI SDK 6 jsonSchema() after the JSON Schema, and uses the value it returns', async () => {
    const weather = toolV6({
      inputSchema: jsonSchemaV6<{ city: string }>(
        { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
        {
          validate: (value) =>
            (value as { city: string }).city === 'Atlantis'
              ? { success: false, error: new Error('no such city') }
              : { success: true, value: { city: (value as { city: string }).city.toUpperCase() } },
        },
      ),
      execute: async ({ city }) => city,
    });
    expect(doneOf((await runOnce({ weather }, { city: 'Atlantis' })).events)).toMatchObject({
      status: 'failed',
      result: { message: 'invalid arguments: no such city' },
    });
    expect(doneOf((await runOnce({ weather }, { city: 'paris' })).events)).toMatchObject({
      result: { output: 'PARIS' },
    });
  });

  it('accepts any Standard Schema that can describe itself as JSON Schema', async () => {
    const citySchema: StandardSchemaLike<{ city: string }> = {
      '~standard': {
        version: 1,
        vendor: 'hand-made',
        validate: (value) =>
          typeof (value as { city?: unknown })?.city === 'string'
            ? { value: value as { city: string } }
            : { issues: [{ message: 'must be a string', path: ['city'] }] },
        jsonSchema: {
          input: () => ({ type: 'object', properties: { city: { type: 'string' } }, required: ['city'] }),
        },
      },
    };
    // written in the AI SDK shape by hand: AI SDK's own tool() types want its Standard Schema type
    const weather = { inputSchema: citySchema, execute: async ({ city }: { city: string }) => city };
    const failed = await runOnce({ weather }, { city: 3 });
    expect(doneOf(failed.events)).toMatchObject({
      result: { message: 'invalid arguments: city: must be a string' },
    });
    expect(failed.model.requests[0]?.tools[0]?.parameters).toMatchObject({ required: ['city'] });
    expect(doneOf((await runOnce({ weather }, { city: 'Oslo' })).events)).toMatchObject({
      result: { output: 'Oslo' },
    });
  });

  it('calls an AI SDK 7 description function once, without a tool context', async () => {
    const weather = toolV7({
      description: () => 'Weather, described late',
      inputSchema: z.object({ city: z.string() }),
      execute: async ({ city }) => city,
    });
    const { model } = await runOnce({ weather }, { city: 'Rome' });
    expect(model.requests[0]?.tools[0]?.description).toBe('Weather, described late');
  });

  it('takes the last value of a streaming execute (an async iterable of preliminary outputs)', async () => {
    const progress = toolV6({
      inputSchema: z.object({}),
      async *execute() {
        yield { percent: 50 };
        yield { percent: 100 };
      },
    });
    expect(doneOf((await runOnce({ progress }, {}, 'progress')).events)).toMatchObject({
      result: { output: { percent: 100 } },
    });
  });

  it('mixes AI SDK tools, Awaken tools and JSON-Schema tools in one record; an AI SDK tool can suspend', async () => {
    const deploy = toolV7({
      description: 'Deploys a service',
      inputSchema: jsonSchemaV7<{ service: string }>({
        type: 'object',
        properties: { service: { type: 'string' } },
      }),
      execute: async (input, options) => {
        const { resume, toolCallId } = options as unknown as ToolExecuteContext;
        return resume
          ? { deployed: input.service }
          : toolPending({ id: `ok_${toolCallId}`, action: 'confirm', message: 'Deploy?' });
      },
    });
    const status = {
      description: 'Service status',
      inputSchema: jsonSchemaInput<{ service: string }>({ type: 'object' }),
      execute: () => 'green',
    };
    const model = createScriptedModel([call('deploy', { service: 'api' }), { text: 'deployed' }]);
    const { runtime } = createHarness({ tools: { deploy, echo: echoTool, status } }, { model });
    const waiting = await runtime.runToCompletion({ agentId: 'agent', input: 'deploy api' });
    expect(waiting.status).toBe('waiting');
    expect(model.requests[0]?.tools.map((described) => described.name)).toEqual(['deploy', 'echo', 'status']);
    const resumed = runtime.resumeRun(waiting.runId, { decisions: [approve('call_1')] });
    const events = await collect(resumed);
    expect(await resumed.result).toMatchObject({ status: 'done', response: 'deployed' });
    expect(doneOf(events)).toMatchObject({ result: { output: { deployed: 'api' } } });
  });

  it("builds, with the contract's jsonSchemaInput(), a schema AI SDK itself recognises", async () => {
    const schema = { type: 'object', properties: { id: { type: 'string' } } };
    // the types differ (AI SDK brands its schemas with a unique symbol type); the values interoperate
    expect(await asSchema(jsonSchemaInput(schema) as never).jsonSchema).toEqual(schema);
  });
});
