import { type Plugin, defineTool } from '@awaken/contract';
import { createMemoryStores } from '@awaken/store-memory';
import { createScriptedModel, pendingTool } from '@awaken/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  type AgentDefinition,
  agentPinOf,
  agentPinOfDefinition,
  canonicalJson,
  createAgentRuntime,
} from '../../index';

const lookup = defineTool({
  name: 'lookup',
  description: 'Looks a word up.',
  parameters: z.object({ word: z.string() }),
  execute: ({ word }) => ({ word }),
});
const rules = (behavior: string): Plugin => ({
  id: 'rules',
  definition: { rules: [{ tool: 'ask_human', behavior }] },
  hooks: {},
});

function agent(overrides: Partial<AgentDefinition> = {}): AgentDefinition {
  return {
    id: 'assistant',
    systemPrompt: 'You help.',
    model: createScriptedModel(() => ({
      toolCalls: [{ id: 'c1', name: 'ask_human', arguments: { question: 'ok?' } }],
    })),
    tools: [lookup, pendingTool],
    plugins: [rules('ask')],
    ...overrides,
  };
}

describe('agent pins', () => {
  it('canonical JSON sorts keys and drops undefined and functions, so key order does not change a pin', () => {
    expect(canonicalJson({ b: 1, a: { d: [1, { f: 2, e: undefined }], c: () => 1 } })).toBe(
      '{"a":{"d":[1,{"f":2}]},"b":1}',
    );
    const one = agentPinOf({
      systemPrompt: 'x',
      modelId: 'm',
      descriptors: [
        { name: 't', description: 'd', parameters: { type: 'object', properties: { a: {}, b: {} } } },
      ],
    });
    const two = agentPinOf({
      systemPrompt: 'x',
      modelId: 'm',
      descriptors: [
        {
          name: 't',
          description: 'other words',
          parameters: { properties: { b: {}, a: {} }, type: 'object' },
        },
      ],
    });
    expect(two).toEqual(one);
  });

  it('each field of the definition changes its own hash: instructions, model, tools, rules', () => {
    const base = agentPinOfDefinition(agent());
    const changed = (overrides: Partial<AgentDefinition>) => {
      const pin = agentPinOfDefinition(agent(overrides));
      return Object.keys(base.fields).filter((field) => pin.fields[field] !== base.fields[field]);
    };
    expect(changed({})).toEqual([]);
    expect(changed({ systemPrompt: 'You help, briefly.' })).toEqual(['instructions']);
    expect(changed({ model: { modelId: 'other', stream: createScriptedModel().stream } })).toEqual(['model']);
    expect(changed({ tools: [pendingTool] })).toEqual(['tools']);
    expect(changed({ plugins: [rules('allow')] })).toEqual(['rules']);
  });

  it('a run records its pin; resuming after the agent changed: refused (conflict naming the fields) or continued per option', async () => {
    const stores = createMemoryStores();
    const before = createAgentRuntime({ agents: [agent()], stores });
    const waiting = await before.runToCompletion({ agentId: 'assistant', input: 'hi' });
    expect(waiting.status).toBe('waiting');
    const record = await stores.threadRuns.getRun(waiting.runId);
    expect(record?.agentPin).toEqual(agentPinOfDefinition(agent()));

    // the deploy: another prompt, lookup takes another argument, the same rules
    const widened = defineTool({ ...lookup, parameters: z.object({ word: z.string(), lang: z.string() }) });
    const deployed = agent({ systemPrompt: 'You help, briefly.', tools: [widened, pendingTool] });
    const decision = {
      toolCallId: 'c1',
      decisionId: 'd1',
      action: 'resume' as const,
      result: 'yes',
      updatedAt: 1,
    };

    const strict = createAgentRuntime({ agents: [deployed], stores, onAgentChange: 'refuse' });
    const refused = strict.resumeRun(waiting.runId, { decisions: [decision] });
    await expect(refused.result).rejects.toMatchObject({
      code: 'conflict',
      message: expect.stringContaining('instructions, tools (changed: lookup) changed since it started'),
      details: {
        drift: { changed: ['instructions', 'tools'], tools: { added: [], removed: [], changed: ['lookup'] } },
      },
    });
    // nothing applied: the run still waits on its call
    expect(await stores.threadRuns.getRun(waiting.runId)).toMatchObject({
      status: 'waiting',
      version: record?.version,
    });

    // per call, continue overrides the runtime's refuse; the default is continue
    const resumed = await strict.resumeRun(waiting.runId, {
      decisions: [decision],
      onAgentChange: 'continue',
    }).result;
    expect(resumed.status).toBe('waiting'); // the scripted model asks again: the run went on
    const lenient = createAgentRuntime({ agents: [deployed], stores });
    const again = { ...decision, decisionId: 'd2', toolCallId: 'c1' };
    await expect(lenient.resumeRun(waiting.runId, { decisions: [again] }).result).resolves.toMatchObject({
      runId: waiting.runId,
    });
  });

  it('an unchanged agent resumes under refuse, and a bad option is refused', async () => {
    const stores = createMemoryStores();
    const first = createAgentRuntime({ agents: [agent()], stores });
    const waiting = await first.runToCompletion({ agentId: 'assistant', input: 'hi' });
    const same = createAgentRuntime({ agents: [agent()], stores, onAgentChange: 'refuse' });
    const decision = {
      toolCallId: 'c1',
      decisionId: 'd1',
      action: 'resume' as const,
      result: 'yes',
      updatedAt: 1,
    };
    await expect(same.resumeRun(waiting.runId, { decisions: [decision] }).result).resolves.toMatchObject({
      status: 'waiting',
    });
    expect(() => createAgentRuntime({ agents: [agent()], stores, onAgentChange: 'maybe' as never })).toThrow(
      /onAgentChange/,
    );
    expect(() => same.resumeRun(waiting.runId, { onAgentChange: 'maybe' as never })).toThrow(/onAgentChange/);
  });
});
