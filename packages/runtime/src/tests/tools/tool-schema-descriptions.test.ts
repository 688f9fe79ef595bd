import { defineTool } from '@awaken/contract';
import { createScriptedModel } from '@awaken/testing';
import { tool } from 'ai';
import { z } from 'zod';
import { z as otherZod } from 'zod-4-1-5';
import { describe, expect, it } from 'vitest';
import { createHarness } from '../../../test-support/harness';

/** The tools of the first request the model received. */
async function toolsSeenByModel(tools: Parameters<typeof createHarness>[0]['tools']) {
  const model = createScriptedModel([{ text: 'ok' }]);
  const { runtime } = createHarness({ tools }, { model });
  await runtime.runToCompletion({ agentId: 'agent', input: 'hi' });
  return model.requests[0]?.tools ?? [];
}

describe('the JSON Schema the model sees keeps descriptions', () => {
  it("keeps .describe() and .meta() of a schema made by another copy of zod than Awaken's", async () => {
    // zod 4.1.5 keeps descriptions in a registry of its own module, invisible to Awaken's zod
    const parameters = otherZod.object({
      city: otherZod.string().describe('The city to look up'),
      days: otherZod
        .number()
        .int()
        .meta({ description: 'How many days', examples: [3] }),
    });
    const [described] = await toolsSeenByModel([
      defineTool({ name: 'forecast', description: 'Weather forecast', parameters, execute: () => 'sunny' }),
    ]);
    expect(described?.parameters).toMatchObject({
      type: 'object',
      properties: {
        city: { type: 'string', description: 'The city to look up' },
        days: { type: 'integer', description: 'How many days', examples: [3] },
      },
      required: ['city', 'days'],
    });
  });

  it('keeps them for an AI SDK tool with a zod inputSchema', async () => {
    const forecast = tool({
      description: 'Weather forecast',
      inputSchema: z.object({ city: z.string().describe('The city to look up') }),
      execute: async () => 'sunny',
    });
    const [described] = await toolsSeenByModel({ forecast });
    expect(described).toMatchObject({
      name: 'forecast',
      description: 'Weather forecast',
      parameters: { properties: { city: { type: 'string', description: 'The city to look up' } } },
    });
  });
});
