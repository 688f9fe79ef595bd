import { AwakenError } from '@awaken/contract';
import { describe, expect, it } from 'vitest';
import { approvalPlugin, recordingTool } from '../../../test-support/approval';
import { approve, createHarness } from '../../../test-support/harness';

describe('resuming one run twice in the same runtime', () => {
  it('rejects a second resumeRun made while the first is still loading, so the tool runs once', async () => {
    const danger = recordingTool('danger');
    const { runtime, store } = createHarness(
      { tools: [danger.tool], plugins: [approvalPlugin(['danger'])] },
      {
        turns: [
          { toolCalls: [{ id: 'a', name: 'danger', arguments: {} }] },
          { text: 'ok' },
          { text: 'again' },
        ],
      },
    );
    const waiting = await runtime.runToCompletion({ agentId: 'agent', input: 'go' });
    expect(waiting.status).toBe('waiting');
    const first = runtime.resumeRun(waiting.runId, { decisions: [approve('a')] });
    let busy: unknown;
    try {
      runtime.resumeRun(waiting.runId, { decisions: [approve('a', true, 'd_other')] });
    } catch (error) {
      busy = error;
    }
    expect(AwakenError.hasCode(busy, 'run_busy')).toBe(true);
    expect(await first.result).toMatchObject({ status: 'done', response: 'ok' });
    expect(danger.count()).toBe(1);
    expect((await store.getRun(waiting.runId))?.termination).toEqual({ type: 'natural_end' });
    // once the activation ended, the run can be resumed (here: it is finished, so its result comes back)
    expect(await runtime.resumeRun(waiting.runId).result).toMatchObject({ status: 'done', response: 'ok' });
  });

  it('cancelRun during the loading window of a resume cancels that activation', async () => {
    const danger = recordingTool('danger');
    const { runtime } = createHarness(
      { tools: [danger.tool], plugins: [approvalPlugin(['danger'])] },
      { turns: [{ toolCalls: [{ id: 'a', name: 'danger', arguments: {} }] }, { text: 'ok' }] },
    );
    const waiting = await runtime.runToCompletion({ agentId: 'agent', input: 'go' });
    const resumed = runtime.resumeRun(waiting.runId, { onSuspend: 'wait' });
    const cancelled = await runtime.cancelRun(waiting.runId, 'stop');
    expect(cancelled).toMatchObject({ status: 'done', termination: { type: 'cancelled' } });
    expect(await resumed.result).toMatchObject({ status: 'done', termination: { type: 'cancelled' } });
    expect(danger.count()).toBe(0);
  });
});
