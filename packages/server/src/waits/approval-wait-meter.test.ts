import type { AgentEvent, DecisionRecord, RunEventLog, SuspendTicket } from '@awaken/contract';
import { createMemoryStores } from '@awaken/store-memory';
import { describe, expect, it } from 'vitest';
import type { OtelApi } from '../tracing/load-otel';
import { type MeasuredWait, createApprovalWaitMeter } from './approval-wait-meter';

/** The question asked at `at` (the events carry their own time: the meter reads no clock). */
function asked(runId: string, seq: number, toolCallId: string, at: number, expiresAt?: number): AgentEvent {
  const ticket: SuspendTicket = {
    suspension: { id: `perm:${toolCallId}`, action: 'confirm', message: 'May I?', parameters: {} },
    pending: { id: toolCallId, name: 'delete_file', arguments: { path: 'a' } },
    resumeMode: 'replay_tool_call',
    ...(expiresAt === undefined ? {} : { expiresAt }),
  } as SuspendTicket;
  return {
    type: 'tool_call_suspended',
    runId,
    seq,
    at,
    toolCallId,
    toolName: 'delete_file',
    ticket,
  } as AgentEvent;
}

function decided(
  runId: string,
  seq: number,
  toolCallId: string,
  decidedAt: number,
  answer: DecisionRecord['answer'],
  channel: DecisionRecord['channel'],
): AgentEvent {
  const record: DecisionRecord = {
    decisionId: `d-${toolCallId}`,
    toolCallId,
    ...(channel ? { channel } : {}),
    decidedAt,
    appliedAt: decidedAt + 5,
    shown: { toolName: 'delete_file', action: 'confirm' },
    answer,
  };
  return { type: 'decision_recorded', runId, seq, at: decidedAt + 5, record } as AgentEvent;
}

function done(runId: string, seq: number, toolCallId: string, at: number, status: string): AgentEvent {
  return {
    type: 'tool_call_done',
    runId,
    seq,
    at,
    toolCallId,
    toolName: 'delete_file',
    status,
  } as AgentEvent;
}

/** A stand-in for `@opentelemetry/api` recording the spans it is asked for. */
function fakeOtel() {
  const spans: Array<{ name: string; start: number; end?: number; attributes: Record<string, unknown> }> = [];
  const api = {
    trace: {
      getTracer: () => ({
        startSpan(name: string, options: { attributes: Record<string, unknown>; startTime: number }) {
          const span = {
            name,
            start: options.startTime,
            attributes: options.attributes,
          } as (typeof spans)[0];
          spans.push(span);
          return {
            end(endTime?: number) {
              span.end = endTime;
            },
          };
        },
      }),
      setSpan: () => ({}),
    },
    context: { active: () => ({}) },
    SpanStatusCode: { ERROR: 2, OK: 1 },
  } as unknown as OtelApi;
  return { api, spans };
}

const T0 = 1_764_000_000_000;
const eventLog = createMemoryStores().eventLog as RunEventLog;

/** `le` → cumulative count of one label set of the histogram. */
async function buckets(meter: ReturnType<typeof createApprovalWaitMeter>, labels: Record<string, string>) {
  const metric = (await meter.registry.getSingleMetric('awaken_approval_wait_seconds')?.get())!;
  const out: Record<string, number> = {};
  for (const value of metric.values) {
    if (!(value as { metricName?: string }).metricName?.endsWith('_bucket')) continue;
    const { le, ...rest } = value.labels as Record<string, string>;
    if (JSON.stringify(rest) === JSON.stringify(labels)) out[String(le)] = value.value;
  }
  return out;
}

describe('createApprovalWaitMeter', () => {
  it('puts an approve, a deny and an expiry in the bucket of their wait, by outcome, tool and channel, with a span each', async () => {
    const otel = fakeOtel();
    const waits: MeasuredWait[] = [];
    const meter = createApprovalWaitMeter({ api: otel.api, onWait: (wait) => waits.push(wait) });
    const feed = (...events: AgentEvent[]) => meter.observe({ runId: 'run-1', events, eventLog });
    // approved 3 s after the question, through the API
    feed(
      asked('run-1', 1, 'c1', T0),
      decided('run-1', 2, 'c1', T0 + 3_000, { action: 'resume', approved: true }, 'api'),
    );
    // denied 20 s after, through a signed link
    feed(
      asked('run-1', 3, 'c2', T0),
      decided('run-1', 4, 'c2', T0 + 20_000, { action: 'resume', approved: false, reason: 'no' }, 'link'),
    );
    // nobody answered: the ticket expired 120 s after it was asked (the run noticed later)
    feed(asked('run-1', 5, 'c3', T0, T0 + 120_000), done('run-1', 6, 'c3', T0 + 125_000, 'expired'));
    await meter.idle();

    const approved = await buckets(meter, { outcome: 'approved', tool: 'delete_file', channel: 'api' });
    expect(approved).toMatchObject({ '1': 0, '5': 1, '15': 1, '+Inf': 1 });
    const denied = await buckets(meter, { outcome: 'denied', tool: 'delete_file', channel: 'link' });
    expect(denied).toMatchObject({ '15': 0, '30': 1, '+Inf': 1 });
    const expired = await buckets(meter, { outcome: 'expired', tool: 'delete_file', channel: 'runtime' });
    expect(expired).toMatchObject({ '60': 0, '300': 1, '+Inf': 1 });

    expect(waits.map((wait) => [wait.outcome, wait.answeredAt - wait.askedAt])).toEqual([
      ['approved', 3_000],
      ['denied', 20_000],
      ['expired', 120_000],
    ]);
    expect(otel.spans).toEqual([
      expect.objectContaining({ name: 'awaken.approval.wait', start: T0, end: T0 + 3_000 }),
      expect.objectContaining({ name: 'awaken.approval.wait', start: T0, end: T0 + 20_000 }),
      expect.objectContaining({ name: 'awaken.approval.wait', start: T0, end: T0 + 120_000 }),
    ]);
    expect(otel.spans[1]?.attributes).toMatchObject({
      'awaken.run.id': 'run-1',
      'gen_ai.tool.call.id': 'c2',
      'gen_ai.tool.name': 'delete_file',
      'awaken.approval.outcome': 'denied',
      'awaken.approval.channel': 'link',
    });
  });

  it('tells edited, cancelled and indeterminate apart, and counts an answered question once', async () => {
    const waits: MeasuredWait[] = [];
    const meter = createApprovalWaitMeter({ api: null, onWait: (wait) => waits.push(wait) });
    const feed = (...events: AgentEvent[]) => meter.observe({ runId: 'run-2', events, eventLog });
    feed(
      asked('run-2', 1, 'e1', T0),
      decided(
        'run-2',
        2,
        'e1',
        T0 + 1_000,
        { action: 'resume', approved: true, editedArguments: { path: 'b' } },
        'ag-ui',
      ),
      // the approved call then runs: its done is not another answer
      done('run-2', 3, 'e1', T0 + 2_000, 'succeeded'),
      // the run was cancelled while this one waited
      asked('run-2', 4, 'x1', T0),
      done('run-2', 5, 'x1', T0 + 7_000, 'cancelled'),
      // a call that never asked is not a wait
      done('run-2', 6, 'never', T0 + 7_000, 'cancelled'),
    );
    const indeterminate = decided(
      'run-2',
      8,
      'i1',
      T0 + 4_000,
      { action: 'resume', result: { outcome: 'retry' } },
      'api',
    );
    (indeterminate as { record: DecisionRecord }).record.shown.action = 'indeterminate';
    feed(asked('run-2', 7, 'i1', T0), indeterminate);
    await meter.idle();
    expect(waits.map((wait) => [wait.toolCallId, wait.outcome, wait.channel])).toEqual([
      ['e1', 'edited', 'ag-ui'],
      ['x1', 'cancelled', 'runtime'],
      ['i1', 'indeterminate', 'api'],
    ]);
  });

  it('reads back from the run event log a question asked in another process', async () => {
    const stores = createMemoryStores();
    const meter = createApprovalWaitMeter({ api: null });
    // asked by another process: only in the log
    const raised = asked('run-3', 1, 'c1', T0);
    await stores.eventLog.append('run-3', [raised]);
    meter.observe({
      runId: 'run-3',
      events: [decided('run-3', 2, 'c1', T0 + 40_000, { action: 'resume', approved: true }, 'api')],
      eventLog: stores.eventLog,
    });
    await meter.idle();
    expect(await buckets(meter, { outcome: 'approved', tool: 'delete_file', channel: 'api' })).toMatchObject({
      '30': 0,
      '60': 1,
    });
  });

  it('measures a cancel of a question asked in another process, and not one that was answered first', async () => {
    const stores = createMemoryStores();
    const waits: MeasuredWait[] = [];
    const meter = createApprovalWaitMeter({ api: null, onWait: (wait) => waits.push(wait) });
    // asked by another process, then the run was cancelled here while it waited
    await stores.eventLog.append('run-4', [asked('run-4', 1, 'c1', T0)]);
    meter.observe({
      runId: 'run-4',
      events: [done('run-4', 2, 'c1', T0 + 90_000, 'cancelled')],
      eventLog: stores.eventLog,
    });
    // asked and approved in another process; its call was running when the run was cancelled here
    await stores.eventLog.append('run-5', [
      asked('run-5', 1, 'c2', T0),
      decided('run-5', 2, 'c2', T0 + 1_000, { action: 'resume', approved: true }, 'api'),
    ]);
    meter.observe({
      runId: 'run-5',
      events: [done('run-5', 3, 'c2', T0 + 5_000, 'cancelled')],
      eventLog: stores.eventLog,
    });
    await meter.idle();
    expect(waits.map((wait) => [wait.runId, wait.outcome, wait.answeredAt - wait.askedAt])).toEqual([
      ['run-4', 'cancelled', 90_000],
    ]);
    expect(
      await buckets(meter, { outcome: 'cancelled', tool: 'delete_file', channel: 'runtime' }),
    ).toMatchObject({
      '60': 0,
      '300': 1,
    });
  });
});
