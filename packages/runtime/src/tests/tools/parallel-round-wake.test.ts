import { createMemoryRunControlInbox, createMemoryThreadRunStore } from '@awaken/store-memory';
import { createControllableTool, createScriptedModel } from '@awaken/testing';
import { describe, expect, it } from 'vitest';
import { approvalPlugin } from '../../../test-support/approval';
import { createAgentRuntime } from '../../create-agent-runtime';

/**
 * The parallel executor waits for its running calls or a wake-up (a decision or cancel). A wake-up
 * whose handling outlasted the last running call used to leave the round waiting on nothing: the
 * run never ended.
 */
describe('a parallel round woken while its last call finishes', () => {
  it.each([0, 1, 2, 3, 4, 5, 6, 8])(
    'ends the run when a cancel arrives as the last running call settles (%i ticks apart)',
    async (ticks) => {
      const controlInbox = createMemoryRunControlInbox();
      const work = createControllableTool('work');
      const model = createScriptedModel((request) =>
        request.messages.at(-1)?.role === 'user'
          ? {
              toolCalls: [
                { id: 'g', name: 'gated', arguments: {} },
                { id: 'w', name: 'work', arguments: {} },
              ],
            }
          : { text: 'done' },
      );
      const gated = createControllableTool('gated');
      const runtime = createAgentRuntime({
        agents: [
          {
            id: 'agent',
            model,
            tools: [gated.tool, work.tool],
            plugins: [approvalPlugin(['gated'])],
            toolExecution: 'parallel',
          },
        ],
        stores: { threadRuns: createMemoryThreadRunStore(), inbox: controlInbox },
      });
      const handle = runtime.run({ agentId: 'agent', runId: 'r', threadId: 't', input: 'go' });
      await work.started('w');
      void controlInbox.put('r', { kind: 'cancel', id: 'c1', reason: 'stop', at: 1 });
      for (let tick = 0; tick < ticks; tick += 1) await Promise.resolve();
      work.release('w');
      const settled = await Promise.race([
        handle.result.then((result) => result.termination.type),
        new Promise((resolve) => setTimeout(() => resolve('still running after 2 s'), 2_000)),
      ]);
      expect(['cancelled', 'natural_end']).toContain(settled);
    },
  );
});
