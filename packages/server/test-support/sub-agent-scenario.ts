import type { Message } from '@awaken/contract';
import { type AgentDefinition, agentTool } from '@awaken/runtime';
import { createScriptedModel } from '@awaken/testing';
import type { Counters } from './counters';
import { scenarioAgent } from './scenario-agent';

/** The agent that delegates (its tool `helper` runs the `helper` agent as a child run). */
export const LEAD_ID = 'lead';
/** The sub-agent: the scenario agent under another id, whose script is the task it is given. */
export const HELPER_ID = 'helper';

function firstUserText(messages: readonly Message[]): string {
  const user = messages.find((message) => message.role === 'user');
  return user?.role === 'user' ? user.content : '';
}

/**
 * The sub-agent pair of the service tests: `lead` hands its whole input to `helper` (one call,
 * `delegate_0`) and then answers `lead heard: <the helper's answer as JSON>`; `helper` plays the
 * input as a scenario script (see `scenarioAgent`: `approve:1` asks, `slow:MS` sleeps once, …).
 * Counters: `lead-model:<input>` per lead model call; the helper counts as the scenario agent does.
 */
export function subAgentScenario(counters: Counters): AgentDefinition[] {
  const scripted = createScriptedModel((request) => {
    const last = request.messages.at(-1);
    if (last?.role === 'tool') return { text: `lead heard: ${JSON.stringify(last.content)}` };
    const task = firstUserText(request.messages);
    return { toolCalls: [{ id: 'delegate_0', name: HELPER_ID, arguments: { task } }] };
  });
  const lead: AgentDefinition = {
    id: LEAD_ID,
    model: {
      modelId: 'lead',
      async *stream(request) {
        await counters.incr(`lead-model:${firstUserText(request.messages)}`);
        yield* scripted.stream(request);
      },
    },
    tools: [agentTool(HELPER_ID)],
  };
  return [lead, { ...scenarioAgent(counters), id: HELPER_ID }];
}
