import type { AgentEvent, SuspendTicket } from '@awaken/contract';
import { createMemoryStores } from '@awaken/store-memory';
import { describe, expect, it } from 'vitest';
import { OTHER_TOOL_LABEL, createApprovalWaitMeter } from './approval-wait-meter';

/** A question about `toolName` (a name the model or the caller chose) answered a second later. */
function askedAndApproved(runId: string, toolName: string): AgentEvent[] {
  const ticket = {
    suspension: { id: `perm:${runId}`, action: 'confirm', message: 'May I?', parameters: {} },
    pending: { id: 'call-1', name: toolName, arguments: {} },
    resumeMode: 'replay_tool_call',
  } as SuspendTicket;
  return [
    { type: 'tool_call_suspended', runId, seq: 1, at: 1_000, toolCallId: 'call-1', toolName, ticket },
    {
      type: 'decision_recorded',
      runId,
      seq: 2,
      at: 2_005,
      record: {
        decisionId: `d-${runId}`,
        toolCallId: 'call-1',
        channel: 'api',
        decidedAt: 2_000,
        appliedAt: 2_005,
        shown: { toolName, action: 'confirm' },
        answer: { action: 'approve', approved: true },
      },
    },
  ] as AgentEvent[];
}

describe('awaken_approval_wait_seconds label cardinality', () => {
  it('keeps at most maxToolLabels tool names and counts the waits of the rest under tool="other"', async () => {
    const meter = createApprovalWaitMeter({ api: null, maxToolLabels: 5 });
    const { eventLog } = createMemoryStores();
    // a hostile prompt or request makes the model call 300 invented tools a permission rule asks about
    for (let index = 0; index < 300; index += 1) {
      meter.observe({
        runId: `run-${index}`,
        events: askedAndApproved(`run-${index}`, `tool_${index}`),
        eventLog,
      });
    }
    await meter.idle();
    const metric = await meter.registry.getSingleMetric('awaken_approval_wait_seconds')?.get();
    const counts = (metric?.values ?? []).filter((value) =>
      (value as { metricName?: string }).metricName?.endsWith('_count'),
    );
    const tools = counts.map((value) => String(value.labels.tool));
    expect(new Set(tools).size).toBe(6);
    expect(tools).toContain(OTHER_TOOL_LABEL);
    expect(tools).toContain('tool_0');
    // every wait is still counted
    expect(counts.reduce((sum, value) => sum + value.value, 0)).toBe(300);
    expect(counts.find((value) => value.labels.tool === OTHER_TOOL_LABEL)?.value).toBe(295);
    // the scrape stays small
    expect((await meter.registry.metrics()).split('\n').length).toBeLessThan(200);
  });

  it('bounds the labels by default', async () => {
    const meter = createApprovalWaitMeter({ api: null });
    const { eventLog } = createMemoryStores();
    for (let index = 0; index < 1_000; index += 1) {
      meter.observe({
        runId: `run-${index}`,
        events: askedAndApproved(`run-${index}`, `tool_${index}`),
        eventLog,
      });
    }
    await meter.idle();
    const metric = await meter.registry.getSingleMetric('awaken_approval_wait_seconds')?.get();
    const tools = new Set(
      (metric?.values ?? [])
        .filter((value) => (value as { metricName?: string }).metricName?.endsWith('_count'))
        .map((value) => value.labels.tool),
    );
    expect(tools.size).toBeLessThanOrEqual(101);
  });
});
