import { createPermissionPlugin } from '@awaken/ext-permission';
import { createAgentRuntime } from '@awaken/runtime';
import { createMemoryThreadRunStore } from '@awaken/store-memory';
import { createScriptedModel } from '@awaken/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type HttpMcpServer, startHttpMcpServer } from '../../../test-support/http-server';
import { type McpConnection, connectMcpServer } from '../../connect-mcp-server';

let http: HttpMcpServer;
let server: McpConnection;

beforeAll(async () => {
  http = await startHttpMcpServer();
  server = await connectMcpServer({ transport: { type: 'http', url: http.url } });
});

afterAll(async () => {
  await server.close();
  await http.close();
});

async function agentWithRules() {
  const tools = await server.tools({ prefix: 'mcp__demo__' });
  const model = createScriptedModel([
    {
      toolCalls: [
        { id: 'rm', name: 'mcp__demo__delete_file', arguments: { path: '/etc/passwd' } },
        { id: 'hi', name: 'mcp__demo__greet', arguments: { name: 'Ada' } },
        { id: 'add', name: 'mcp__demo__add', arguments: { a: 1, b: 2 } },
      ],
    },
    { text: 'done' },
  ]);
  const permissions = createPermissionPlugin({
    defaultBehavior: 'allow',
    rules: [
      { tool: 'mcp__demo__delete_file', behavior: 'ask' },
      { tool: 'mcp__demo__add', behavior: 'deny' },
    ],
  });
  return createAgentRuntime({
    agents: [{ id: 'agent', tools, plugins: [permissions], toolExecution: 'parallel' }],
    stores: { threadRuns: createMemoryThreadRunStore() },
    model,
  });
}

describe('an MCP server over streamable HTTP', () => {
  it('applies permission rules to MCP tools: ask suspends the call until a human approves, deny never calls the server', async () => {
    const runtime = await agentWithRules();
    const waiting = await runtime.runToCompletion({ agentId: 'agent', input: 'clean up' });
    expect(waiting.status).toBe('waiting');
    expect(waiting.waiting?.tickets.map((ticket) => ticket.toolCallId)).toEqual(['rm']);
    expect(http.counts).toEqual({ greet: 1 });

    const resumed = runtime.resumeRun(waiting.runId, {
      decisions: [
        { toolCallId: 'rm', decisionId: 'd1', action: 'resume', result: { approved: true }, updatedAt: 1 },
      ],
    });
    expect(await resumed.result).toMatchObject({ status: 'done', response: 'done' });
    expect(http.counts).toEqual({ greet: 1, delete_file: 1 });
  });

  it('tells the caller what is wrong with the options', async () => {
    await expect(connectMcpServer({ transport: { type: 'http', url: 'not a url' } })).rejects.toMatchObject({
      code: 'invalid_config',
      message: expect.stringContaining('transport.url'),
    });
    await expect(connectMcpServer({ transport: { type: 'stdio', command: '' } })).rejects.toMatchObject({
      code: 'invalid_config',
      message: expect.stringContaining('transport.command'),
    });
    await expect(connectMcpServer({ transport: { type: 'ws' } as never })).rejects.toMatchObject({
      code: 'invalid_config',
      message: expect.stringContaining('transport.type'),
    });
  });
});
