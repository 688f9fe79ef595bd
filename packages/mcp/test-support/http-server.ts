import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { type CallCounts, createDemoServer } from './demo-server';

export interface HttpMcpServer {
  url: string;
  counts: CallCounts;
  close(): Promise<void>;
}

/**
 * Starts the demo MCP server over streamable HTTP on a free loopback port, stateless: a fresh
 * server and transport per request, sharing one call counter.
 */
export async function startHttpMcpServer(): Promise<HttpMcpServer> {
  const counts: CallCounts = {};
  const http: Server = createServer(async (request, response) => {
    const server = createDemoServer(counts);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    response.on('close', () => {
      transport.close().catch(() => {});
      server.close().catch(() => {});
    });
    await server.connect(transport);
    await transport.handleRequest(request, response);
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    counts,
    close: () =>
      new Promise<void>((resolve, reject) => {
        http.closeAllConnections();
        http.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
