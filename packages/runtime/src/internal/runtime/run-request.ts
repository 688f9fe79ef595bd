import {
  AwakenError,
  type ClientTool,
  type RunContext,
  clientToolSchema,
  formatZodIssues,
  runContextSchema,
} from '@awaken/contract';
import { z } from 'zod';
import type { RunRequest } from '../../types';
import type { ResolvedAgent } from './resolve-agents';

/** A client tool as stored with the run (defaults applied). */
export type StoredClientTool = z.output<typeof clientToolSchema>;

/** Why a request may not declare an agent tool the server executes. */
function shadowsServerTool(index: number, name: string, agentId: string): string {
  return `tools[${index}] "${name}" shadows a server-executed tool of agent "${agentId}": a request may only redeclare the agent's client tools`;
}

function invalid(message: string, field: string): AwakenError {
  return new AwakenError('validation_failed', message, { details: { field } });
}

/**
 * Checks what a run request adds to the agent: its client tools (each a name, description and JSON
 * Schema, no name twice, none shadowing a tool the server executes) and its JSON context. A bad one
 * is the caller's mistake: `validation_failed` naming the field, before anything is written. A
 * client tool the agent declares itself (`Tool.clientTool`) is accepted and not stored: the agent's
 * declaration wins.
 */
export function parseRequestExtras(
  agent: ResolvedAgent,
  request: Pick<RunRequest, 'tools' | 'context'>,
): { clientTools?: StoredClientTool[]; context?: RunContext } {
  let clientTools: StoredClientTool[] | undefined;
  if (request.tools !== undefined) {
    const parsed = z.array(clientToolSchema).safeParse(request.tools);
    if (!parsed.success) throw invalid(`invalid tools: ${formatZodIssues(parsed.error.issues)}`, 'tools');
    const names = new Set<string>();
    for (const [index, tool] of parsed.data.entries()) {
      const own = agent.tools.get(tool.name);
      if (own && !own.clientTool)
        throw invalid(shadowsServerTool(index, tool.name, agent.id), `tools[${index}]`);
      if (names.has(tool.name)) throw invalid(`tools declares "${tool.name}" twice`, `tools[${index}]`);
      names.add(tool.name);
    }
    clientTools = parsed.data.filter((tool) => !agent.tools.has(tool.name));
  }
  let context: RunContext | undefined;
  if (request.context !== undefined) {
    const parsed = runContextSchema.safeParse(request.context);
    if (!parsed.success) {
      throw invalid(`invalid context (a JSON object): ${formatZodIssues(parsed.error.issues)}`, 'context');
    }
    context = parsed.data;
  }
  return { ...(clientTools ? { clientTools } : {}), ...(context ? { context } : {}) };
}

/** The client tools of a run, by name. */
export function clientToolsOf(tools: readonly ClientTool[] | undefined): Map<string, StoredClientTool> {
  return new Map((tools ?? []).map((tool) => [tool.name, clientToolSchema.parse(tool)]));
}
