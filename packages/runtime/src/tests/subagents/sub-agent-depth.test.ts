import { createMemoryStores } from '@awaken/store-memory';
import { createScriptedModel } from '@awaken/testing';
import { describe, expect, it } from 'vitest';
import { MAX_SUB_AGENT_DEPTH } from '../../internal/subagents/create-sub-runs';
import { agentTool } from '../../agent-tool';
import { createAgentRuntime } from '../../create-agent-runtime';

/**
 * Delegation that cycles (an agent that is its own sub-agent, or A → B → A) is bounded: a call that
 * would start a child deeper than `MAX_SUB_AGENT_DEPTH` fails with a message naming the limit, the
 * calling model reads it and answers, and every level ends. Unbounded, a model that keeps delegating
 * nested child runs until the process ran out of memory.
 */
describe('sub-agent depth', () => {
  it('a self-delegating agent stops at the depth limit: the deepest call fails, every level answers', async () => {
    let calls = 0;
    const model = createScriptedModel((request) => {
      calls += 1;
      // a runaway guard for the test itself: without the limit, the nesting would never end
      if (calls > 4 * MAX_SUB_AGENT_DEPTH) return { text: 'runaway' };
      const last = request.messages[request.messages.length - 1];
      if (last?.role === 'tool') return { text: `answered: ${JSON.stringify(last.content)}` };
      return { toolCalls: [{ id: 'again', name: 'loop', arguments: { task: 'do it again' } }] };
    });
    const stores = createMemoryStores();
    const runtime = createAgentRuntime({
      agents: [{ id: 'loop', tools: [agentTool('loop')] }],
      stores,
      model,
    });
    const result = await runtime.runToCompletion({ agentId: 'loop', input: 'go' });
    expect(result.status).toBe('done');
    expect(result.termination.type).toBe('natural_end');
    // each level: one model call that delegates and one that answers (the deepest call fails)
    expect(calls).toBe(2 * (MAX_SUB_AGENT_DEPTH + 1));
    expect(result.response).toContain(`deeper than ${MAX_SUB_AGENT_DEPTH} levels`);
    const waiting = await stores.threadRuns.listAllRuns({
      status: ['created', 'running', 'waiting'],
      limit: 100,
    });
    expect(waiting.items).toEqual([]);
  });
});
