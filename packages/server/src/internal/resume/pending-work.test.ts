import { type ToolCallDecision, decisionControl } from '@awaken/contract';
import { createAgentRuntime } from '@awaken/runtime';
import { createMemoryStores } from '@awaken/store-memory';
import { describe, expect, it } from 'vitest';
import { memoryCounters } from '../../../test-support/counters';
import { AGENT_ID, scenarioAgent } from '../../../test-support/scenario-agent';
import { pendingWork } from './pending-work';

const approve = (toolCallId: string): ToolCallDecision => ({
  toolCallId,
  decisionId: `d_${toolCallId}`,
  action: 'resume',
  result: { approved: true },
  updatedAt: 1,
});

describe('pendingWork', () => {
  it('ignores a decision the run already recorded, keeps the rest; a done run keeps only late input', async () => {
    const stores = createMemoryStores();
    const runtime = createAgentRuntime({ agents: [scenarioAgent(memoryCounters())], stores });
    await runtime.createRun({ agentId: AGENT_ID, runId: 'r', threadId: 't', input: 'approve:2' });
    await runtime.resumeRun('r').result;
    const first = approve('approve_me_0_0');
    const second = approve('approve_me_0_1');
    expect((await runtime.resumeRun('r', { decisions: [first] }).result).status).toBe('waiting');
    const waiting = await stores.threadRuns.getRun('r');
    if (!waiting) throw new Error('no run');
    const cancel = { kind: 'cancel' as const, id: 'c', at: 1 };
    const input = {
      kind: 'input' as const,
      id: 'i',
      messages: [{ role: 'user' as const, content: 'x' }],
      at: 1,
    };
    const controls = [decisionControl(first), decisionControl(second), cancel, input];
    expect(pendingWork(waiting, controls).map((control) => control.id)).toEqual([second.decisionId, 'c']);
    const done = { ...waiting, status: 'done' as const };
    expect(pendingWork(done, controls).map((control) => control.id)).toEqual(['i']);
  });

  it('input alone is no work for a waiting run: it joins once the tickets are answered (no resume that suspends again at once, without end)', async () => {
    const stores = createMemoryStores();
    const runtime = createAgentRuntime({ agents: [scenarioAgent(memoryCounters())], stores });
    await runtime.createRun({ agentId: AGENT_ID, runId: 'r', threadId: 't', input: 'approve:1' });
    const waiting = await runtime.resumeRun('r').result;
    expect(waiting.status).toBe('waiting');
    const record = await stores.threadRuns.getRun('r');
    if (!record) throw new Error('no run');
    const input = {
      kind: 'input' as const,
      id: 'i',
      messages: [{ role: 'user' as const, content: 'x' }],
      at: 1,
    };
    expect(pendingWork(record, [input])).toEqual([]);
    // a run that has not suspended takes it at its next step boundary
    expect(pendingWork({ ...record, status: 'running' }, [input]).map((control) => control.id)).toEqual([
      'i',
    ]);
  });
});
