import {
  AwakenError,
  type JsonSchema,
  type ToolExecuteContext,
  type ToolSet,
  compileJsonSchema,
  jsonSchemaInput,
  toolFailure,
} from '@awaken/contract';
import { type McpCallResult, toToolOutput } from './internal/to-tool-output';

/** A tool as an MCP server lists it (`tools/list`). */
export interface McpToolInfo {
  name: string;
  title?: string;
  description?: string;
  inputSchema: { [key: string]: unknown };
}

/**
 * The two requests this package sends, recognised by shape: a connected `Client` of
 * `@modelcontextprotocol/sdk` (any copy) fits.
 */
export interface McpClientLike {
  listTools(params?: { cursor?: string }): Promise<{ tools: McpToolInfo[]; nextCursor?: string }>;
  callTool(
    params: { name: string; arguments?: Record<string, unknown> },
    resultSchema?: undefined,
    options?: { signal?: AbortSignal; timeout?: number },
  ): Promise<unknown>;
}

/** Options of {@link createMcpTools}. */
export interface McpToolsOptions {
  /**
   * Put before every tool name, so the tools of several servers cannot collide and permission rules
   * can name a server's tools at once (e.g. `mcp__github__` and the rule `mcp__github__*`).
   */
  prefix?: string;
  /** Keeps only the tools for which it returns true (called with the server's own tool info). */
  filter?: (tool: McpToolInfo) => boolean;
  /** How long one tool call may take before it fails, in milliseconds; default the SDK's (60 s). */
  timeoutMs?: number;
}

async function listAllTools(client: McpClientLike): Promise<McpToolInfo[]> {
  const tools: McpToolInfo[] = [];
  let cursor: string | undefined;
  do {
    const page = await client.listTools(cursor === undefined ? undefined : { cursor });
    tools.push(...page.tools);
    cursor = page.nextCursor;
  } while (cursor !== undefined && cursor !== '');
  return tools;
}

function agentTool(client: McpClientLike, info: McpToolInfo, options: McpToolsOptions) {
  const schema = info.inputSchema as JsonSchema;
  const check = compileJsonSchema(schema);
  return {
    description: info.description ?? info.title ?? '',
    inputSchema: jsonSchemaInput<Record<string, unknown>>(schema),
    async execute(input: Record<string, unknown>, context: ToolExecuteContext) {
      // checked here too, so the schema holds even when the tool is called outside an Awaken runtime
      const issues = check(input);
      if (issues.length > 0) {
        return toolFailure(
          `invalid arguments: ${issues.map((issue) => `${issue.path}: ${issue.message}`).join('; ')}`,
        );
      }
      const result = await client.callTool({ name: info.name, arguments: input }, undefined, {
        signal: context.abortSignal,
        ...(options.timeoutMs === undefined ? {} : { timeout: options.timeoutMs }),
      });
      return toToolOutput(result as McpCallResult);
    },
  };
}

/**
 * Lists every tool of a connected MCP server and returns them as agent tools, keyed by name (with
 * `prefix`), ready for an agent's `tools` record. Each tool's JSON Schema is sent to the model and
 * enforced on the arguments before the server is called: an invalid call fails with the fields at
 * fault and never reaches the server. Permission rules, ToolGate plugins and suspension apply to
 * these tools like to any other. A tool call forwards the run's abort signal to the server.
 *
 * Throws `invalid_config` when a tool's input schema is not a JSON Schema object or two tools end
 * up with the same name.
 */
export async function createMcpTools(client: McpClientLike, options: McpToolsOptions = {}): Promise<ToolSet> {
  const tools: ToolSet = {};
  for (const info of await listAllTools(client)) {
    if (options.filter !== undefined && !options.filter(info)) continue;
    const name = `${options.prefix ?? ''}${info.name}`;
    if (
      typeof info.inputSchema !== 'object' ||
      info.inputSchema === null ||
      Array.isArray(info.inputSchema)
    ) {
      throw new AwakenError(
        'invalid_config',
        `MCP tool "${info.name}" has no JSON Schema object as inputSchema`,
      );
    }
    if (Object.hasOwn(tools, name)) {
      throw new AwakenError('invalid_config', `MCP tool name "${name}" is listed twice`);
    }
    tools[name] = agentTool(client, info, options);
  }
  return tools;
}
