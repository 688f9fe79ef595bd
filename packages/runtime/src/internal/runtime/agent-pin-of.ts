import { createHash } from 'node:crypto';
import type { AgentPin, Plugin, ToolDescriptor } from '@awaken/contract';

/**
 * Canonical JSON: object keys sorted (by code unit), no whitespace, `undefined` and functions left
 * out (as `JSON.stringify` does), arrays in their order. Two equal definitions give one text
 * whatever order their keys were written in.
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value)) ?? 'null';
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map((item) => (typeof item === 'function' ? null : sortKeys(item)));
  if (value instanceof RegExp) return value.toString();
  if (typeof value !== 'object' || value === null) return value;
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return value;
  const sorted: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) {
    const item = (value as Record<string, unknown>)[key];
    if (item === undefined || typeof item === 'function') continue;
    sorted[key] = sortKeys(item);
  }
  return sorted;
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** What a pin hashes of an agent: its prompt, model, tools (name + JSON Schema) and plugin definitions. */
export interface PinnedDefinition {
  systemPrompt?: string;
  /** The model executor's `modelId`. */
  modelId?: string;
  descriptors: readonly ToolDescriptor[];
  plugins?: readonly Plugin[];
}

/**
 * The pin of an agent definition (see `agentPinSchema`): sha256 of the canonical JSON of
 * `{ instructions, model, tools, rules }` where `instructions` is the system prompt (or null), `model`
 * the executor's `modelId` (or null), `tools` the sorted list of `{ name, parameters }` (descriptions
 * are left out: rewording one is not a change of behaviour) and `rules` the `definition` of each
 * plugin that declares one, by plugin id. Each field is hashed on its own too, and each tool.
 */
export function agentPinOf(agent: PinnedDefinition): AgentPin {
  const tools = [...agent.descriptors]
    .map((tool) => ({ name: tool.name, parameters: tool.parameters }))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const rules: Record<string, unknown> = {};
  for (const plugin of agent.plugins ?? []) {
    if (plugin.definition !== undefined) rules[plugin.id] = plugin.definition;
  }
  const parts = {
    instructions: agent.systemPrompt ?? null,
    model: agent.modelId ?? null,
    tools,
    rules,
  };
  const fields: Record<string, string> = {};
  for (const [field, value] of Object.entries(parts))
    fields[field] = sha256(canonicalJson(value)).slice(0, 16);
  const toolHashes: Record<string, string> = {};
  for (const tool of tools) toolHashes[tool.name] = sha256(canonicalJson(tool.parameters)).slice(0, 16);
  return { hash: sha256(canonicalJson(parts)), fields, toolHashes };
}
