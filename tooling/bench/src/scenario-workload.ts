/**
 * What both runtime-overhead benchmarks share: the (S, N) scenarios, the trivial `noop` tool on each
 * side, and the ai@6 `generateText` contender driven by the scripted MockLanguageModelV3.
 */
import { defineTool } from '@awaken/contract';
import { generateText, stepCountIs, tool } from 'ai';
import { z } from 'zod';
import type { Contender } from './internal/stats';
import { type Scenario, createScenarioModel } from './same-model-script';

export const SCENARIOS: Scenario[] = [
  { steps: 10, callsPerStep: 1 },
  { steps: 10, callsPerStep: 8 },
  { steps: 50, callsPerStep: 4 },
];

/** The same-model benchmark's shapes: many calls per step, many steps of one call, and between. */
export const SAME_MODEL_SCENARIOS: Scenario[] = [
  { steps: 10, callsPerStep: 4 },
  { steps: 3, callsPerStep: 32 },
  { steps: 50, callsPerStep: 1 },
];

const noopParameters = z.object({ value: z.string() });

export const awakenNoop = defineTool({
  name: 'noop',
  description: 'Returns its input.',
  parameters: noopParameters,
  execute: ({ value }) => ({ ok: value }),
});

export const aiTools = {
  noop: tool({
    description: 'Returns its input.',
    inputSchema: noopParameters,
    execute: async ({ value }) => ({ ok: value }),
  }),
};

/** ai@6 `generateText` running the scenario to its final text turn. */
export const generateTextContender: Contender<Scenario> = {
  name: 'ai generateText',
  async run(scenario) {
    const result = await generateText({
      model: createScenarioModel(scenario),
      tools: aiTools,
      stopWhen: stepCountIs(scenario.steps + 1),
      maxRetries: 0,
      prompt: 'go',
    });
    if (result.steps.length !== scenario.steps + 1)
      throw new Error(`generateText ran ${result.steps.length} steps`);
  },
};
