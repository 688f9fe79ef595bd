import type { InferenceRequest, Message } from '@awaken/contract';
import { type ScriptedTurn, createScriptedModel, echoTool } from '@awaken/testing';
import { approvalPlugin, recordingTool } from './approval';
import { createHarness } from './harness';
import type { createTestStore } from './recording-store';

/** A turn calling the approval-gated `danger` tool twice (ids `a` and `b`). */
export const twoDangerCalls = (args: [unknown, unknown] = [{ n: 1 }, { n: 2 }]): ScriptedTurn => ({
  toolCalls: [
    { id: 'a', name: 'danger', arguments: args[0] },
    { id: 'b', name: 'danger', arguments: args[1] },
  ],
});

/** A runtime whose `danger` tool needs approval (parallel executor unless `parallel: false`). */
export function twoApprovalsHarness(
  options: { parallel?: boolean; store?: ReturnType<typeof createTestStore>; turns?: ScriptedTurn[] } = {},
) {
  const danger = recordingTool('danger');
  const model = createScriptedModel(options.turns ?? [twoDangerCalls(), { text: 'continued' }]);
  const harness = createHarness(
    {
      tools: [danger.tool, echoTool],
      plugins: [approvalPlugin(['danger'])],
      toolExecution: options.parallel === false ? 'sequential' : 'parallel',
    },
    { model, ...(options.store ? { store: options.store } : {}) },
  );
  return { ...harness, danger, model };
}

/** The messages of the model's `index`-th request. */
export const requestMessages = (
  model: { requests: Array<Omit<InferenceRequest, 'signal'>> },
  index: number,
): readonly Message[] => model.requests[index]?.messages ?? [];
