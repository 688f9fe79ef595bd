import type { RunEventLog } from '@awaken/contract';
import { createMemoryRunEventLog } from '@awaken/store-memory';
import { describe, expect, it } from 'vitest';
import { recordingTool } from '../../../test-support/approval';
import { activations, framingViolations } from '../../../test-support/framing';
import { createHarness } from '../../../test-support/harness';

/** A memory event log whose appends take a macrotask, as a database's do. */
function slowLog(): RunEventLog {
  const log = createMemoryRunEventLog();
  const append = log.append.bind(log);
  log.append = async (...args: Parameters<RunEventLog['append']>) => {
    await new Promise<void>((resolve) => setImmediate(resolve));
    return append(...args);
  };
  return log;
}

/**
 * The StepEnd phase posts a step's `step_end`; the run's end closes the step still open. While the
 * posted `step_end` is queued or being appended the step is not closed yet, and closing it again
 * logged a second `step_end` for the same step (and a write of its own).
 */
describe('a step closed by the StepEnd phase while its step_end is still being logged', () => {
  it('is logged with one step_end per step', async () => {
    const eventLog = slowLog();
    const { runtime } = createHarness(
      { tools: [recordingTool('safe').tool] },
      { eventLog, turns: [{ toolCalls: [{ name: 'safe', arguments: {} }] }, { text: 'done' }] },
    );
    const handle = runtime.run({ agentId: 'agent', input: 'go' });
    await handle.result;
    const events = await eventLog.read(handle.runId);
    const ends = events.filter((event) => event.type === 'step_end').map((event) => event.step);
    expect(ends).toEqual([1, 2]);
    for (const activation of activations(events)) expect(framingViolations(activation)).toEqual([]);
  });
});
