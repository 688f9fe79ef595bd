import { defineTool, toolPending } from '@awaken/contract';
import { z } from 'zod';

const FORECASTS = ['sunny', 'cloudy', 'rainy', 'windy', 'snowy'];

function hash(text: string): number {
  let value = 0;
  for (const char of text) value = (value * 31 + char.charCodeAt(0)) >>> 0;
  return value;
}

/** Always allowed: a made-up, deterministic forecast. */
export const getWeather = defineTool({
  name: 'get_weather',
  description: 'The current weather of a city',
  parameters: z.object({ city: z.string().min(1).max(60) }),
  execute: ({ city }) => ({
    city,
    forecast: FORECASTS[hash(city) % FORECASTS.length],
    celsius: (hash(city) % 30) - 5,
  }),
});

/**
 * Needs a human's approval (the permission plugin asks for every call). Deletes nothing for real: the
 * demo records the path it was allowed to delete.
 */
export function createDeleteFile(deleted: string[]) {
  return defineTool({
    name: 'delete_file',
    description: 'Deletes a file (in this demo, only pretends to)',
    parameters: z.object({ path: z.string().min(1).max(300) }),
    execute: ({ path }) => {
      deleted.push(path);
      return { deleted: path };
    },
  });
}

const COLOR_ANSWER = {
  type: 'object',
  properties: { color: { type: 'string' } },
  required: ['color'],
} as const;

/**
 * A client tool: the server does not execute it. The call waits until the client answers with a
 * decision whose `result` (`{ color }`) becomes the tool's result. `clientTool: true` lets an AG-UI
 * client (a CopilotKit frontend tool) declare `choose_color` in its request too.
 */
export const chooseColor = defineTool({
  name: 'choose_color',
  description: 'Asks the user to pick a color in the client',
  parameters: z.object({ options: z.array(z.string()).min(1).max(20) }),
  clientTool: true,
  execute: ({ options }, context) =>
    toolPending(
      {
        id: `client:${context.toolCallId}`,
        action: 'client_tool',
        message: `Pick one of: ${options.join(', ')}`,
        parameters: { options },
        responseSchema: { ...COLOR_ANSWER },
      },
      'use_decision_as_tool_result',
    ),
});

/**
 * Asks a human, and the question expires quickly (the permission rule's `approvalTimeout`): nobody
 * answering within it resolves the call `expired`, and the run goes on without restarting anything.
 */
export const restartService = defineTool({
  name: 'restart_service',
  description: 'Restarts a service (in this demo, only pretends to)',
  parameters: z.object({ service: z.string().min(1).max(60) }),
  execute: ({ service }) => ({ restarted: service }),
});

/** How long `send_invoice` takes: long enough to stop the server while it runs. */
export const SEND_INVOICE_MS = 3_000;

/**
 * A tool that must never run twice (`idempotent: false`): if the process dies while it "sends", the
 * resumed run does not send again but asks a human whether it was sent (an `indeterminate` ticket).
 * `onSending` hears each start of its body (the reference server logs it: `demo: sending invoice`).
 */
export function createSendInvoice(sent: string[], onSending?: (invoice: string) => void) {
  return defineTool({
    name: 'send_invoice',
    description: 'Sends an invoice to the customer (in this demo, only pretends to)',
    parameters: z.object({ invoice: z.string().min(1).max(40) }),
    idempotent: false,
    execute: async ({ invoice }, context) => {
      onSending?.(invoice);
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(resolve, SEND_INVOICE_MS);
        context.signal.addEventListener(
          'abort',
          () => {
            clearTimeout(timer);
            reject(context.signal.reason);
          },
          { once: true },
        );
      });
      sent.push(invoice);
      return { sent: invoice };
    },
  });
}
