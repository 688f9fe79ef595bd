import { AwakenError, type ToolSet } from '@awaken/contract';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport, getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { type McpToolsOptions, createMcpTools } from './create-mcp-tools';

/** How to reach an MCP server: a local process over stdio, or a URL over streamable HTTP. */
export type McpTransportOptions =
  | {
      type: 'stdio';
      command: string;
      args?: string[];
      /** Added to the safe default environment (PATH, HOME, ...); the rest of ours is not passed. */
      env?: Record<string, string>;
      cwd?: string;
      /** What happens to the server's stderr; default `inherit`. */
      stderr?: 'inherit' | 'ignore' | 'pipe';
    }
  | {
      type: 'http';
      url: string | URL;
      /** Sent with every request, e.g. `Authorization`. */
      headers?: Record<string, string>;
    };

/** Options of {@link connectMcpServer}. */
export interface McpServerOptions {
  transport: McpTransportOptions;
  /** The client name the server sees; default `awaken`. */
  clientName?: string;
}

/** A connected MCP server. */
export interface McpConnection {
  /** The underlying SDK client, for anything beyond tools (resources, prompts). */
  readonly client: Client;
  /** The server's tools as agent tools (see `createMcpTools`). */
  tools(options?: McpToolsOptions): Promise<ToolSet>;
  /** Closes the connection (and stops a stdio server process). */
  close(): Promise<void>;
}

function invalid(message: string): AwakenError {
  return new AwakenError('invalid_config', message);
}

function createTransport(options: McpTransportOptions | undefined): Transport {
  switch (options?.type) {
    case 'stdio':
      if (typeof options.command !== 'string' || options.command === '') {
        throw invalid('MCP transport.command must be a non-empty string');
      }
      return new StdioClientTransport({
        command: options.command,
        args: options.args ?? [],
        env: { ...getDefaultEnvironment(), ...options.env },
        ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
        stderr: options.stderr ?? 'inherit',
      });
    case 'http': {
      let url: URL;
      try {
        url = new URL(options.url);
      } catch {
        throw invalid(`MCP transport.url is not a URL: ${String(options.url)}`);
      }
      return new StreamableHTTPClientTransport(url, {
        ...(options.headers === undefined ? {} : { requestInit: { headers: options.headers } }),
      });
    }
    default: {
      const type = (options as { type?: unknown } | undefined)?.type;
      throw invalid(`MCP transport.type must be "stdio" or "http", got ${JSON.stringify(type)}`);
    }
  }
}

/**
 * Connects to an MCP server over stdio (starting it as a child process) or streamable HTTP. The
 * connection stays open until `close()`; tool calls of every run share it.
 */
export async function connectMcpServer(options: McpServerOptions): Promise<McpConnection> {
  const transport = createTransport(options.transport);
  const client = new Client({ name: options.clientName ?? 'awaken', version: '1.0.0' });
  await client.connect(transport);
  return {
    client,
    tools: (toolOptions) => createMcpTools(client, toolOptions),
    close: () => client.close(),
  };
}
