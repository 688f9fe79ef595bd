import {
  AwakenError,
  type JsonSchema,
  type ToolDescriptor,
  type ToolExecuteContext,
  isToolResult,
} from '@awaken/contract';
import { handoffTargetOf } from '../../handoff-tool';
import { type ArgumentsCheck, resolveToolInput } from './resolve-tool-input';

/** A tool of an agent after its definition was checked: the same shape whatever it was written as. */
export interface ResolvedTool {
  name: string;
  descriptor: ToolDescriptor;
  /** Validates (and, for schemas that transform, converts) the arguments the model sent. */
  check(raw: unknown): Promise<ArgumentsCheck>;
  /** How long (ms) a ticket of a call of this tool waits (`Tool.approvalTimeout`). */
  approvalTimeout?: number;
  /** False when the tool must never run twice by itself (`Tool.idempotent`). */
  idempotent: boolean;
  /** True when the client executes the tool (`Tool.clientTool`): a request may declare it too. */
  clientTool: boolean;
  /** Set for a `handoffTool`: the runtime executes the call itself (see internal/handoff). */
  handoff?: { agentId: string };
  execute(args: unknown, context: ToolExecuteContext): Promise<unknown>;
}

type Entry = Record<string, unknown>;

function invalid(message: string): AwakenError {
  return new AwakenError('invalid_config', message);
}

function isRecord(value: unknown): value is Entry {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isAsyncIterable(value: unknown): value is AsyncIterable<unknown> {
  return (
    isRecord(value) &&
    typeof (value as { [Symbol.asyncIterator]?: unknown })[Symbol.asyncIterator] === 'function'
  );
}

/** A streaming AI SDK tool yields preliminary outputs; the last one is the result. */
async function settleOutput(output: unknown): Promise<unknown> {
  const value = await output;
  if (!isAsyncIterable(value) || isToolResult(value)) return value;
  let last: unknown;
  for await (const item of value) last = item;
  return last;
}

function checkUnsupported(entry: Entry, where: string): void {
  if (entry.type === 'provider' || entry.type === 'provider-defined') {
    throw invalid(
      `${where}: provider-defined tools (type "${String(entry.type)}") run at the provider and cannot be agent tools`,
    );
  }
  if (entry.needsApproval !== undefined && entry.needsApproval !== false) {
    throw invalid(
      `${where}.needsApproval is not supported: use a permission rule (@awaken/ext-permission "ask") or a ToolGate plugin that suspends the call`,
    );
  }
}

/** The description for the model; AI SDK 7 allows a function of the tool context (none here). */
function describe(entry: Entry, aiSdkStyle: boolean, where: string): string {
  let description: unknown = entry.description ?? (aiSdkStyle ? '' : undefined);
  if (typeof description === 'function') {
    try {
      description = (description as (options: { context: undefined }) => unknown)({ context: undefined });
    } catch (error) {
      throw invalid(`${where}.description threw when called without a tool context: ${String(error)}`);
    }
  }
  if (typeof description !== 'string') throw invalid(`${where}.description must be a string`);
  return description;
}

function resolveTool(entry: unknown, name: string, where: string): ResolvedTool {
  if (!isRecord(entry))
    throw invalid(`${where} must be a tool object, got ${entry === null ? 'null' : typeof entry}`);
  checkUnsupported(entry, where);
  const aiSdkStyle = 'inputSchema' in entry;
  const description = describe(entry, aiSdkStyle, where);
  if (typeof entry.execute !== 'function') {
    throw invalid(
      aiSdkStyle
        ? `${where}.execute must be a function (tools the client executes are not agent tools)`
        : `${where}.execute must be a function`,
    );
  }
  if (!aiSdkStyle && !('parameters' in entry)) {
    throw invalid(`${where} needs an input schema: parameters (defineTool) or inputSchema (AI SDK tool)`);
  }
  const override = isRecord(entry.jsonSchema) ? (entry.jsonSchema as JsonSchema) : undefined;
  const field = aiSdkStyle ? 'inputSchema' : 'parameters';
  const input = resolveToolInput(entry[field], `${where}.${field}`, aiSdkStyle ? undefined : override);
  const execute = entry.execute as (args: unknown, context: ToolExecuteContext) => unknown;
  const { approvalTimeout, idempotent, clientTool } = entry;
  if (
    approvalTimeout !== undefined &&
    !(Number.isSafeInteger(approvalTimeout) && (approvalTimeout as number) > 0)
  )
    throw invalid(`${where}.approvalTimeout must be a positive integer (milliseconds)`);
  if (idempotent !== undefined && typeof idempotent !== 'boolean')
    throw invalid(`${where}.idempotent must be a boolean`);
  if (clientTool !== undefined && typeof clientTool !== 'boolean')
    throw invalid(`${where}.clientTool must be a boolean`);
  const handoff = handoffTargetOf(entry);
  return {
    name,
    ...(handoff === undefined ? {} : { handoff: { agentId: handoff } }),
    ...(approvalTimeout === undefined ? {} : { approvalTimeout: approvalTimeout as number }),
    idempotent: idempotent !== false,
    clientTool: clientTool === true,
    descriptor: { name, description, parameters: input.jsonSchema },
    check: input.check,
    execute: (args, context) => settleOutput(execute.call(entry, args, context)),
  };
}

function fromArray(agentId: string, tools: readonly unknown[]): Array<[string, ResolvedTool]> {
  return tools.map((tool, index) => {
    const where = `agent "${agentId}" tools[${index}]`;
    const name = isRecord(tool) ? tool.name : undefined;
    if (typeof name !== 'string' || name.length === 0) {
      const hint =
        isRecord(tool) && 'inputSchema' in tool
          ? ' (an AI SDK tool gets its name from its key: pass tools as a record, { weather: tool({...}) })'
          : '';
      throw invalid(`${where}.name must be a non-empty string${hint}`);
    }
    return [name, resolveTool(tool, name, `agent "${agentId}" tool "${name}"`)];
  });
}

function fromRecord(agentId: string, tools: Entry): Array<[string, ResolvedTool]> {
  return Object.entries(tools).map(([key, tool]) => {
    const where = `agent "${agentId}" tool "${key}"`;
    if (key.length === 0) throw invalid(`agent "${agentId}" has a tool with an empty name`);
    if (isRecord(tool) && tool.name !== undefined && tool.name !== key) {
      throw invalid(`${where}.name is "${String(tool.name)}" but its key is "${key}"; they must match`);
    }
    return [key, resolveTool(tool, key, where)];
  });
}

/**
 * Checks an agent's tools — an array of Awaken tools (`defineTool`) or a record keyed by name whose
 * values are AI SDK tools (`tool({ description, inputSchema, execute })`) or Awaken tools — and
 * gives each one shape. Throws `invalid_config` naming the agent, the tool and the field at fault.
 */
export function normalizeTools(agentId: string, tools: unknown): Map<string, ResolvedTool> {
  if (tools === undefined) return new Map();
  let entries: Array<[string, ResolvedTool]>;
  if (Array.isArray(tools)) entries = fromArray(agentId, tools);
  else if (isRecord(tools)) entries = fromRecord(agentId, tools);
  else throw invalid(`agent "${agentId}" tools must be an array of tools or a record of tools keyed by name`);
  const resolved = new Map<string, ResolvedTool>();
  for (const [name, tool] of entries) {
    if (resolved.has(name)) throw invalid(`agent "${agentId}" declares tool "${name}" twice`);
    resolved.set(name, tool);
  }
  return resolved;
}
