import type { ModelExecutor } from '@awaken/contract';
import { createPermissionPlugin } from '@awaken/ext-permission';
import { a2aAgentTool } from '@awaken/protocol-a2a';
import type { AgentDefinition } from '@awaken/runtime';
import { createTracingPlugin } from '@awaken/server';
import { chooseColor, createDeleteFile, getWeather } from './demo-tools';

/**
 * The demo agent: weather allowed, deleting a file asks a human, picking a color asks the client.
 * With a remote A2A agent, also `delegate`: its `ask_remote` tool asks that agent, and the remote
 * agent's approvals become this agent's tickets.
 */
export function createDemoAgents(options: {
  model: ModelExecutor;
  deleted: string[];
  remote?: { url: string; token?: string };
}): AgentDefinition[] {
  const permissions = createPermissionPlugin({
    defaultBehavior: 'ask',
    rules: [
      { tool: 'get_weather', behavior: 'allow' },
      { tool: 'choose_color', behavior: 'allow' },
      { tool: 'delete_file(/etc/**)', behavior: 'deny' },
    ],
  });
  const remote = options.remote;
  const delegate: AgentDefinition[] = remote
    ? [
        {
          id: 'delegate',
          systemPrompt: 'You delegate to a remote A2A agent with ask_remote.',
          model: options.model,
          tools: [
            a2aAgentTool({
              url: remote.url,
              name: 'ask_remote',
              ...(remote.token ? { headers: { authorization: `Bearer ${remote.token}` } } : {}),
            }),
          ],
          plugins: [createTracingPlugin()],
        },
      ]
    : [];
  return [
    ...delegate,
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
