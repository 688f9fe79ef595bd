import { describe, expect, it } from 'vitest';
import type { ToolCallStatus } from '../tool/tool-call-status';
import { deriveRunStatus } from './derive-run-status';

const calls = (...statuses: ToolCallStatus[]) => statuses.map((status) => ({ status }));

describe('deriveRunStatus (seed 000 decision table)', () => {
  it('is running when any call is running, whatever else is suspended', () => {
    expect(deriveRunStatus(calls('running', 'suspended', 'succeeded'))).toBe('running');
  });
  it('is running when any call is resuming', () => {
    expect(deriveRunStatus(calls('suspended', 'resuming', 'failed'))).toBe('running');
  });
  it('is waiting when nothing executes and some call is suspended', () => {
    expect(deriveRunStatus(calls('suspended', 'succeeded', 'cancelled'))).toBe('waiting');
  });
  it('is done when every call is terminal', () => {
    expect(deriveRunStatus(calls('succeeded', 'failed', 'cancelled'))).toBe('done');
  });
  it('is waiting when a call is suspended and later calls are still new (sequential executor)', () => {
    expect(deriveRunStatus(calls('succeeded', 'suspended', 'new', 'new'))).toBe('waiting');
  });
  it('is done for an empty set of calls', () => {
    expect(deriveRunStatus([])).toBe('done');
  });

  it('reproduces the parallel timeline t0-t7 of seed 000', () => {
    // tool_A and tool_B need approval, tool_C is normal. "Created" is the `new` status.
    const timeline: Array<[ToolCallStatus, ToolCallStatus, ToolCallStatus, string]> = [
      // t0: the seed's table shows the *run* Running because its step is running; derived from the calls
      // alone (the seed's own derive_run_status ignores `new`) no call holds the run yet. `new` must not
      // count as running, or a sequential round with later calls left `new` behind a suspension could
      // never become waiting.
      ['new', 'new', 'new', 'done'],
      ['suspended', 'new', 'running', 'running'], // t1
      ['suspended', 'suspended', 'running', 'running'], // t2
      ['suspended', 'suspended', 'succeeded', 'waiting'], // t3
      ['resuming', 'suspended', 'succeeded', 'running'], // t4
      ['succeeded', 'suspended', 'succeeded', 'waiting'], // t5
      ['succeeded', 'resuming', 'succeeded', 'running'], // t6
      ['succeeded', 'succeeded', 'succeeded', 'done'], // t7
    ];
    for (const [a, b, c, expected] of timeline) {
      expect(deriveRunStatus(calls(a, b, c))).toBe(expected);
    }
  });

  it('reproduces the concurrent timeline t0-t5 of seed 000', () => {
    const timeline: Array<[ToolCallStatus, ToolCallStatus, ToolCallStatus, string]> = [
      ['suspended', 'suspended', 'running', 'running'], // t0: tool_C executing
      ['resuming', 'suspended', 'running', 'running'], // t1: tool_A decision, replay
      ['succeeded', 'suspended', 'running', 'running'], // t2: tool_A done, tool_C still running
      ['succeeded', 'suspended', 'succeeded', 'waiting'], // t3: tool_C done
      ['succeeded', 'resuming', 'succeeded', 'running'], // t4: tool_B decision
      ['succeeded', 'succeeded', 'succeeded', 'done'], // t5
    ];
    for (const [a, b, c, expected] of timeline) expect(deriveRunStatus(calls(a, b, c))).toBe(expected);
  });
});
