import type { AgentEvent } from '@awaken/contract';
import { describe, expect, it } from 'vitest';
import {
  type CountedShadowVerdict,
  SHADOW_VERDICTS_STATE,
  createShadowVerdictMeter,
} from './shadow-verdict-meter';

const verdict = (call: string, toolName: string, at: number, rule?: string) => ({
  call,
  toolCallId: call,
  toolName,
  step: 1,
  behavior: 'deny',
  ...(rule ? { rule } : {}),
  reason: 'r',
  enforced: 'allow',
  at,
});

let seq = 0;
const start = (runId: string, at: number) =>
  ({ type: 'run_start', runId, seq: ++seq, at, threadId: 't', agentId: 'a', resumed: false }) as AgentEvent;
const snapshot = (runId: string, at: number, list: unknown[]) =>
  ({ type: 'state_snapshot', runId, seq: ++seq, at, state: { [SHADOW_VERDICTS_STATE]: list } }) as AgentEvent;

async function series(meter: ReturnType<typeof createShadowVerdictMeter>): Promise<string[]> {
  const text = await meter.registry.metrics();
  return text.split('\n').filter((line) => line.startsWith('awaken_shadow_verdicts_total{'));
}

describe('createShadowVerdictMeter', () => {
  it('counts each verdict once, only in the activation that judged it', async () => {
    const counted: CountedShadowVerdict[] = [];
    const meter = createShadowVerdictMeter({ onVerdict: (entry) => counted.push(entry) });
    const first = verdict('1:c0', 'delete_file', 1_000, 'delete_file(/etc/**)');
    meter.observe({ runId: 'r1', events: [start('r1', 900), snapshot('r1', 1_001, [first])] });
    // the same snapshot again in the same activation, then a resumed activation carrying it
    meter.observe({ runId: 'r1', events: [snapshot('r1', 1_002, [first])] });
    const second = verdict('2:c1', 'delete_file', 5_100, 'delete_file(/etc/**)');
    meter.observe({ runId: 'r1', events: [start('r1', 5_000), snapshot('r1', 5_200, [first, second])] });
    expect(counted.map((entry) => entry.call)).toEqual(['1:c0', '2:c1']);
    expect(await series(meter)).toEqual([
      'awaken_shadow_verdicts_total{tool="delete_file",rule="delete_file(/etc/**)",shadow="deny",enforced="allow"} 2',
    ]);
  });

  it('keeps at most maxLabelValues tools and rules (then other), and ignores malformed records', async () => {
    const meter = createShadowVerdictMeter({ maxLabelValues: 2 });
    const list = [
      verdict('1:a', 'tool_a', 10),
      verdict('1:a2', 'tool_a', 10, 'tool_a(x)'),
      verdict('1:b', 'tool_b', 10),
      verdict('1:c', 'tool_c', 10, 'tool_c(y)'),
      { call: '1:d', toolName: 'tool_d' },
      'not a verdict',
    ];
    meter.observe({ runId: 'r2', events: [start('r2', 0), snapshot('r2', 20, list)] });
    expect((await series(meter)).sort()).toEqual([
      'awaken_shadow_verdicts_total{tool="other",rule="other",shadow="deny",enforced="allow"} 1',
      'awaken_shadow_verdicts_total{tool="tool_a",rule="default",shadow="deny",enforced="allow"} 1',
      'awaken_shadow_verdicts_total{tool="tool_a",rule="tool_a(x)",shadow="deny",enforced="allow"} 1',
      'awaken_shadow_verdicts_total{tool="tool_b",rule="default",shadow="deny",enforced="allow"} 1',
    ]);
  });
});
