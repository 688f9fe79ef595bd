import { fileURLToPath } from 'node:url';
import { createAgentRuntime } from '@awaken/runtime';
import { createMemoryThreadRunStore } from '@awaken/store-memory';
import { createScriptedModel } from '@awaken/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type McpConnection, connectMcpServer } from '../../connect-mcp-server';

const PACKAGE_DIR = fileURLToPath(new URL('../../..', import.meta.url));

let server: McpConnection;

beforeAll(async () => {
  // a real MCP server in a child process, spoken to over stdin/stdout
  server = await connectMcpServer({
    transport: {
      type: 'stdio',
      command: process.execPath,
      args: ['--import', 'tsx', 'test-support/stdio-server.ts'],
      cwd: PACKAGE_DIR,
    },
  });
});

afterAll(async () => {
  await server.close();
});

async function callCounts(): Promise<Record<string, number>> {
  const result = await server.client.callTool({ name: 'call_counts', arguments: {} });
  const [part] = result.content as Array<{ text: string }>;
  return JSON.parse(part?.text ?? '{}');
}

describe('an MCP server over stdio', () => {
  it("lists the server's tools with their descriptions and JSON Schemas", async () => {
    const tools = await server.tools({ prefix: 'mcp__demo__' });
    expect(Object.keys(tools).sort()).toEqual([
      'mcp__demo__add',
      'mcp__demo__broken',
      'mcp__demo__call_counts',
      'mcp__demo__delete_file',
      'mcp__demo__greet',
    ]);
    const add = tools.mcp__demo__add as { description: string; inputSchema: { jsonSchema: unknown } };
    expect(add.description).toBe('Adds two integers');
    expect(add.inputSchema.jsonSchema).toMatchObject({
      type: 'object',
      properties: { a: { type: 'integer', description: 'first addend' }, b: { type: 'integer' } },
      required: ['a', 'b'],
    });
  });

  it("runs an agent whose tools are the server's: results come back, the schema is enforced before the server is called", async () => {
    const tools = await server.tools({ filter: (tool) => tool.name !== 'call_counts' });
    const model = createScriptedModel([
      {
        toolCalls: [
          { id: 'good', name: 'add', arguments: { a: 2, b: 3 } },
          { id: 'bad', name: 'add', arguments: { a: 'two', b: 3.5 } },
          { id: 'text', name: 'greet', arguments: { name: 'Ada' } },
          { id: 'err', name: 'broken', arguments: {} },
        ],
      },
      { text: 'done' },
    ]);
    const runtime = createAgentRuntime({
      agents: [{ id: 'agent', tools }],
      stores: { threadRuns: createMemoryThreadRunStore() },
      model,
    });
    const before = (await callCounts()).add ?? 0;
    const result = await runtime.runToCompletion({ agentId: 'agent', input: 'add' });
    expect(result.status).toBe('done');
    expect(model.requests[0]?.tools.map((tool) => tool.name).sort()).toEqual([
      'add',
      'broken',
      'delete_file',
      'greet',
    ]);
    const results = model.requests[1]?.messages.filter((message) => message.role === 'tool') ?? [];
    expect(results).toEqual([
      expect.objectContaining({ toolCallId: 'good', outcome: 'succeeded', content: { sum: 5 } }),
      expect.objectContaining({ toolCallId: 'bad', outcome: 'failed' }),
      expect.objectContaining({ toolCallId: 'text', outcome: 'succeeded', content: 'Hello, Ada!' }),
      expect.objectContaining({ toolCallId: 'err', outcome: 'failed' }),
    ]);
    expect(JSON.stringify(results[1]?.content)).toMatch(/invalid arguments: a: .*; b: /);
    expect(JSON.stringify(results[3]?.content)).toContain('disk on fire');
    expect((await callCounts()).add).toBe(before + 1);
  });
});
