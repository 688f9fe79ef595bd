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
 * decision whose `result` (`{ color }`) becomes the tool's result.
 */
export const chooseColor = defineTool({
  name: 'choose_color',
  description: 'Asks the user to pick a color in the client',
  parameters: z.object({ options: z.array(z.string()).min(1).max(20) }),
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
