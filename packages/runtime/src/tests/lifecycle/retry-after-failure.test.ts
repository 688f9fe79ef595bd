import type { ScriptedTurn } from '@awaken/testing';
import { describe, expect, it } from 'vitest';
import { recordingTool } from '../../../test-support/approval';
import { createCrashingStore } from '../../../test-support/crashing-store';
import { createHarness } from '../../../test-support/harness';
import { createTestStore } from '../../../test-support/recording-store';

describe('a retry after a failure', () => {
  it('does not re-execute a tool whose result was committed', async () => {
    const store = createTestStore();
    const echoRuns = recordingTool('work');
    const turns: ScriptedTurn[] = [
      { toolCalls: [{ id: 'w', name: 'work', arguments: {} }] },
      { text: 'finished' },
    ];
    const crashing = createHarness(
      { tools: [echoRuns.tool] },
      { store: createCrashingStore(store, 3), turns },
    );
    // the store refuses every later write: the run cannot even be ended, so it stays resumable
    await expect(
      crashing.runtime.runToCompletion({ agentId: 'agent', runId: 'r', input: 'go' }),
    ).rejects.toMatchObject({
      code: 'store_failure',
    });
    expect((await store.getRun('r'))?.status).toBe('running');
    expect(echoRuns.count('w')).toBe(1);
    const retry = createHarness({ tools: [echoRuns.tool] }, { store, turns: [{ text: 'finished' }] });
    expect(await retry.runtime.resumeRun('r').result).toMatchObject({ status: 'done', response: 'finished' });
    expect(echoRuns.count('w')).toBe(1);
  });
});
