import type { ModelExecutor } from '@awaken/contract';
import { createPermissionPlugin } from '@awaken/ext-permission';
import type { AgentDefinition } from '@awaken/runtime';
import { createTracingPlugin } from '@awaken/server';
import { chooseColor, createDeleteFile, getWeather } from './demo-tools';

/**
 * The demo agent: weather allowed, deleting a file asks a human, picking a color asks the client.
 * Tools a client declares with its request (AG-UI frontend tools) run in the client without an
 * approval first: only delete_file asks.
 */
export function createDemoAgents(options: { model: ModelExecutor; deleted: string[] }): AgentDefinition[] {
  const permissions = createPermissionPlugin({
    defaultBehavior: 'allow',
    rules: [
      { tool: 'delete_file', behavior: 'ask' },
      { tool: 'get_weather', behavior: 'allow' },
      { tool: 'choose_color', behavior: 'allow' },
      { tool: 'delete_file(/etc/**)', behavior: 'deny' },
      // four-eyes: whoever started the run cannot approve deleting under /srv
      { tool: 'delete_file(/srv/**)', behavior: 'ask', requireDistinctApprover: true },
    ],
  });
  return [
    {
      id: 'demo',
      systemPrompt:
        'You are the Awaken demo assistant. Use get_weather for weather, delete_file to delete files (a human approves each call) and choose_color to let the user pick a color.',
      model: options.model,
      tools: [getWeather, createDeleteFile(options.deleted), chooseColor],
      plugins: [createTracingPlugin(), permissions],
      // parallel calls (two deletions) each wait for their own approval and resolve independently
      toolExecution: 'parallel',
    },
  ];
}
