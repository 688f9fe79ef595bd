import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';

/** How often each demo tool's body ran on this server. */
export type CallCounts = Record<string, number>;

/**
 * The MCP server the tests talk to: `add` (structured result), `greet` (text), `delete_file` (for
 * permission rules), `broken` (reports an error), `call_counts` (how often each ran).
 */
export function createDemoServer(counts: CallCounts = {}): McpServer {
  const server = new McpServer({ name: 'awaken-demo', version: '1.0.0' });
  const count = (name: string) => {
    counts[name] = (counts[name] ?? 0) + 1;
  };
  server.registerTool(
    'add',
    {
      description: 'Adds two integers',
      inputSchema: { a: z.number().int().describe('first addend'), b: z.number().int() },
      outputSchema: { sum: z.number() },
    },
    async ({ a, b }) => {
      count('add');
      return { content: [{ type: 'text', text: String(a + b) }], structuredContent: { sum: a + b } };
    },
  );
  server.registerTool(
    'greet',
    { description: 'Greets someone', inputSchema: { name: z.string().min(1) } },
    async ({ name }) => {
      count('greet');
      return { content: [{ type: 'text', text: `Hello, ${name}!` }] };
    },
  );
  server.registerTool(
    'delete_file',
    { description: 'Deletes a file', inputSchema: { path: z.string() } },
    async ({ path }) => {
      count('delete_file');
      return { content: [{ type: 'text', text: `deleted ${path}` }] };
    },
  );
  server.registerTool('broken', { description: 'Always fails' }, async () => {
    count('broken');
    return { isError: true, content: [{ type: 'text', text: 'disk on fire' }] };
  });
  server.registerTool('call_counts', { description: 'How often each tool ran' }, async () => ({
    content: [{ type: 'text', text: JSON.stringify(counts) }],
  }));
  return server;
}
