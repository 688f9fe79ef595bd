import type { ModelExecutor } from '@awaken/contract';
import { createPermissionPlugin } from '@awaken/ext-permission';
import { a2aAgentTool } from '@awaken/protocol-a2a';
import { type AgentDefinition, agentTool, handoffTool } from '@awaken/runtime';
import { createTracingPlugin } from '@awaken/server';
import { DEMO_SUB_AGENTS } from './demo-sub-agents';
import { chooseColor, createDeleteFile, createSendInvoice, getWeather, restartService } from './demo-tools';

/** How long the demo's `restart_service` approval waits before it expires (ms). */
export const RESTART_APPROVAL_MS = 20_000;

/**
 * A sub-agent of the demo agent: it has `delete_file` and no rules of its own that loosen anything —
 * as the demo agent's child it runs under the demo agent's permission rules (inherited: its
 * `delete_file` asks the demo's human, `/etc/**` is denied, `/srv/**` needs four eyes). Run on its
 * own (an agent id any door accepts), it asks before every call.
 */
function subAgent(id: string, options: { model: ModelExecutor; deleted: string[] }): AgentDefinition {
  return {
    id,
    systemPrompt: `You are the ${id}. You delete the files you are asked to delete with delete_file.`,
    model: options.model,
    tools: [createDeleteFile(options.deleted)],
    plugins: [createTracingPlugin(), createPermissionPlugin({ defaultBehavior: 'ask', inherit: false })],
  };
}

/**
 * The demo agent: weather allowed, deleting a file asks a human, restarting a service asks a human
 * who has {@link RESTART_APPROVAL_MS} to answer, sending an invoice must never happen twice, picking
 * a color asks the client. Tools a client declares with its request (AG-UI frontend tools) run in the
 * client without an approval first; `transfer_to_billing` hands the run to the `billing` agent. It
 * delegates to the sub-agents `janitor` and `archivist` (`agentTool`): their `delete_file` asks
 * through the demo's inherited rules, and the question reaches the demo's human as a ticket of the
 * delegating call. With a remote A2A agent, also `delegate`: its `ask_remote` tool asks that agent,
 * and the remote agent's approvals become this agent's tickets.
 */
/**
 * The agent `transfer_to_billing` hands a demo run to: its own prompt, tools and rules (sending an
 * invoice asks a human here, while the demo agent sends without asking).
 */
function billingAgent(model: ModelExecutor, sent: string[]): AgentDefinition {
  return {
    id: 'billing',
    systemPrompt:
      'You are the Awaken billing agent. Use send_invoice to send an invoice (a human approves it).',
    model,
    tools: [createSendInvoice(sent)],
    plugins: [
      createTracingPlugin(),
      createPermissionPlugin({
        defaultBehavior: 'allow',
        rules: [{ tool: 'send_invoice', behavior: 'ask' }],
      }),
    ],
  };
}

export function createDemoAgents(options: {
  model: ModelExecutor;
  deleted: string[];
  sent?: string[];
  /** Hears each start of `send_invoice`'s body, with the invoice. */
  onSendInvoice?: (invoice: string) => void;
  restartApprovalMs?: number;
  remote?: { url: string; token?: string };
}): AgentDefinition[] {
  const permissions = createPermissionPlugin({
    defaultBehavior: 'allow',
    rules: [
      { tool: 'delete_file', behavior: 'ask' },
      { tool: 'get_weather', behavior: 'allow' },
      { tool: 'choose_color', behavior: 'allow' },
      { tool: 'delete_file(/etc/**)', behavior: 'deny' },
      // a stricter rule being tried: it would deny deleting logs; recorded, not enforced (still asks)
      { tool: 'delete_file(/var/log/**)', behavior: 'deny', shadow: true },
      // four-eyes: whoever started the run cannot approve deleting under /srv
      { tool: 'delete_file(/srv/**)', behavior: 'ask', requireDistinctApprover: true },
      { tool: 'send_invoice', behavior: 'allow' },
      {
        tool: 'restart_service',
        behavior: 'ask',
        approvalTimeout: options.restartApprovalMs ?? RESTART_APPROVAL_MS,
      },
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
        'You are the Awaken demo assistant. Use get_weather for weather, delete_file to delete files (a human approves each call), restart_service to restart a service (a human approves it in time), send_invoice to send an invoice and choose_color to let the user pick a color.',
      model: options.model,
      tools: [
        getWeather,
        createDeleteFile(options.deleted),
        chooseColor,
        restartService,
        createSendInvoice(options.sent ?? [], options.onSendInvoice),
        ...DEMO_SUB_AGENTS.map((id) =>
          agentTool(id, {
            description: `Asks the ${id} (a sub-agent) to do a task, e.g. delete a file; its deletions ask you first`,
          }),
        ),
        handoffTool('billing', { description: 'Transfer the user to the billing agent (invoices).' }),
      ],
      plugins: [createTracingPlugin(), permissions],
      // parallel calls (two deletions) each wait for their own approval and resolve independently
      toolExecution: 'parallel',
    },
    ...DEMO_SUB_AGENTS.map((id) => subAgent(id, options)),
    billingAgent(options.model, options.sent ?? []),
  ];
}
