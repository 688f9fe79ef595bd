import { AwakenError, defineTool } from '@awaken/contract';
import { createScriptedModel, echoTool } from '@awaken/testing';
import { tool } from 'ai';
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { createAgentRuntime } from '../../create-agent-runtime';
import { createTestStore } from '../../../test-support/recording-store';

function configError(tools: unknown): AwakenError {
  try {
    createAgentRuntime({
      agents: [{ id: 'helper', tools: tools as never }],
      stores: { threadRuns: createTestStore() },
      model: createScriptedModel([]),
    });
  } catch (error) {
    if (AwakenError.isInstance(error)) return error;
    throw new Error(`expected an AwakenError, got ${String(error)}`);
  }
  throw new Error('expected createAgentRuntime to throw');
}

const weather = tool({
  description: 'Current weather',
  inputSchema: z.object({ city: z.string() }),
  execute: async () => 'sunny',
});

describe('a tool of the wrong shape is invalid_config naming the tool and the field', () => {
  it('an AI SDK tool in an array (it has no name) points to the record form', () => {
    const error = configError([weather]);
    expect(error.code).toBe('invalid_config');
    expect(error.message).toContain('agent "helper" tools[0].name');
    expect(error.message).toContain('record');
  });

  it('an inputSchema that is not a schema', () => {
    const error = configError({ weather: { ...weather, inputSchema: { city: 'string' } } });
    expect(error.code).toBe('invalid_config');
    expect(error.message).toContain(
      'tool "weather".inputSchema must be a zod schema, a Standard Schema or a JSON Schema',
    );
  });

  it('parameters that are not a schema', () => {
    const error = configError([
      { name: 'echo', description: 'Echoes', parameters: 'text', execute: () => 1 },
    ]);
    expect(error.message).toContain('tool "echo".parameters must be');
  });

  it('a missing execute, a description that is not a string, needsApproval and provider tools', () => {
    expect(configError({ weather: { ...weather, execute: undefined } }).message).toContain(
      'tool "weather".execute must be a function',
    );
    expect(configError({ weather: { ...weather, description: 42 } }).message).toContain(
      'tool "weather".description must be a string',
    );
    expect(configError({ weather: { ...weather, needsApproval: true } }).message).toContain(
      'tool "weather".needsApproval is not supported',
    );
    expect(
      configError({ search: { type: 'provider', id: 'openai.web_search', args: {} } }).message,
    ).toContain('tool "search"');
  });

  it('a Standard Schema that cannot describe itself as JSON Schema names its vendor', () => {
    const opaque = {
      '~standard': { version: 1, vendor: 'valibot', validate: (value: unknown) => ({ value }) },
    };
    const error = configError({ weather: { ...weather, inputSchema: opaque } });
    expect(error.message).toContain('tool "weather".inputSchema is a "valibot" Standard Schema');
  });

  it('a record key that differs from the Awaken tool name, a missing name, and a tool declared twice', () => {
    expect(configError({ say: echoTool }).message).toContain(
      'tool "say".name is "echo" but its key is "say"',
    );
    expect(configError([{ ...echoTool, name: '' }]).message).toContain(
      'tools[0].name must be a non-empty string',
    );
    expect(configError([echoTool, echoTool]).message).toContain('declares tool "echo" twice');
    expect(configError('echo').message).toContain('tools must be an array of tools or a record');
  });

  it('a zod schema the model cannot be told about (a transform in the input) is refused up front', () => {
    const dated = defineTool({
      name: 'dated',
      description: 'Takes a date',
      parameters: z.object({ when: z.date() }),
      execute: () => 'ok',
    });
    const error = configError([dated]);
    expect(error.code).toBe('invalid_config');
    expect(error.message).toContain('tool "dated".parameters cannot be converted to JSON Schema');
  });
});
