import { type AgentEvent, AwakenError, type RunEventLog } from '@awaken/contract';
import { createMemoryRunEventLog } from '@awaken/store-memory';
import { describe, expect, it } from 'vitest';
import type { RuntimeBookkeeping } from './runtime-bookkeeping';
import { Activation, createWakeSignal } from './activation';
import { createEventChannel } from './event-channel';
import { RunEvents } from './run-events';

const RUN = 'run-1';

/** A memory event log that counts appends and fails the ones `failing` says. */
function recordingLog(failing: (call: number) => boolean = () => false) {
  const inner = createMemoryRunEventLog();
  const log = Object.create(inner) as RunEventLog;
  const calls: number[] = [];
  log.append = async (runId, events, options) => {
    calls.push(events.length);
    if (failing(calls.length)) throw new AwakenError('store_failure', 'store down');
    return inner.append(runId, events, options);
  };
  return { inner, log, calls };
}

function runEvents(eventLog: RunEventLog) {
  const channel = createEventChannel<AgentEvent>();
  const bookkeeping = { lastSeq: 0 } as RuntimeBookkeeping;
  const activation = new Activation(RUN, {
    fence: 0,
    wake: createWakeSignal(),
    runController: new AbortController(),
  });
  const events = new RunEvents({ runId: RUN, channel, eventLog, now: () => 1, bookkeeping, activation });
  return { events, bookkeeping };
}

describe('RunEvents: group-committed appends', () => {
  it('appends a burst of posted events in one call, in seq order, before the awaited event after them', async () => {
    const { inner, log, calls } = recordingLog();
    const { events, bookkeeping } = runEvents(log);
    for (let index = 0; index < 10; index += 1)
      events.post({ type: 'text_delta', messageId: 'm', delta: String(index) });
    await events.emit({ type: 'text_end', messageId: 'm' });
    expect(calls).toEqual([11]);
    const logged = await inner.read(RUN);
    expect(logged.map((event) => event.seq)).toEqual(Array.from({ length: 11 }, (_, index) => index + 1));
    expect(bookkeeping.lastSeq).toBe(11);
  });

  it("reports a posted append's failure at the next awaited emit, and logs nothing in between", async () => {
    const { inner, log } = recordingLog((call) => call === 1);
    const { events, bookkeeping } = runEvents(log);
    events.post({ type: 'text_start', messageId: 'm' });
    await events.settled;
    // posted after the failure: dropped, not logged over the gap in content
    events.post({ type: 'text_delta', messageId: 'm', delta: 'x' });
    await expect(events.emit({ type: 'text_end', messageId: 'm' })).rejects.toThrow('store down');
    expect(await inner.read(RUN)).toEqual([]);
    expect(bookkeeping.lastSeq).toBe(0);
    // heard once: the next event is logged at the seq the failed one did not use
    await events.emit({ type: 'step_start', step: 1 });
    expect((await inner.read(RUN)).map((event) => [event.seq, event.type])).toEqual([[1, 'step_start']]);
  });

  it("rejects the barrier with a posted append's failure once, so the checkpoint after it is not written", async () => {
    const { inner, log } = recordingLog((call) => call === 1);
    const { events, bookkeeping } = runEvents(log);
    events.post({ type: 'step_start', step: 1 });
    events.post({ type: 'text_start', messageId: 'm' });
    await expect(events.barrier()).rejects.toThrow('store down');
    expect(bookkeeping.lastSeq).toBe(0);
    // heard once: the barrier passes again and the next posted event takes the unused seq
    events.post({ type: 'step_start', step: 1 });
    await events.barrier();
    expect((await inner.read(RUN)).map((event) => [event.seq, event.type])).toEqual([[1, 'step_start']]);
    expect(bookkeeping.lastSeq).toBe(1);
  });

  it('passes the barrier only once every posted event is logged', async () => {
    const { inner, log, calls } = recordingLog();
    const { events, bookkeeping } = runEvents(log);
    events.post({ type: 'run_start', threadId: 't', agentId: 'a', resumed: false });
    events.post({ type: 'step_start', step: 1 });
    await events.barrier();
    expect(bookkeeping.lastSeq).toBe(2);
    expect(calls).toEqual([2]);
    expect(await inner.read(RUN)).toHaveLength(2);
  });
});

describe('RunEvents: an event posted to go with the next write (postWithNext)', () => {
  function jointRunEvents(eventLog: RunEventLog) {
    const channel = createEventChannel<AgentEvent>();
    const bookkeeping = { lastSeq: 0 } as RuntimeBookkeeping;
    const activation = new Activation(RUN, {
      fence: 0,
      wake: createWakeSignal(),
      runController: new AbortController(),
    });
    const events = new RunEvents({
      runId: RUN,
      channel,
      eventLog,
      now: () => 1,
      bookkeeping,
      activation,
      jointCheckpoints: true,
    });
    return { events, bookkeeping };
  }

  it('starts no append of its own: it goes with the next event, in order', async () => {
    const { inner, log, calls } = recordingLog();
    const { events } = jointRunEvents(log);
    events.post({ type: 'step_start', step: 1 });
    await events.settled;
    events.postWithNext({ type: 'step_end', step: 1 });
    await events.settled;
    expect(calls).toEqual([1]);
    await events.emit({ type: 'step_start', step: 2 });
    expect(calls).toEqual([1, 2]);
    expect((await inner.read(RUN)).map((event) => event.type)).toEqual([
      'step_start',
      'step_end',
      'step_start',
    ]);
  });

  it('is taken by the next joint write, and by a barrier', async () => {
    const { inner, log, calls } = recordingLog();
    const { events } = jointRunEvents(log);
    events.postWithNext({ type: 'step_end', step: 1 });
    const taken = await events.takeForCheckpoint([{ type: 'text_end', messageId: 'm' }]);
    expect(taken.events.map((event) => [event.seq, event.type])).toEqual([[1, 'step_end']]);
    expect(taken.end.map((event) => [event.seq, event.type])).toEqual([[2, 'text_end']]);
    // the joint write (here: the log itself) writes both
    await inner.append(RUN, [...taken.events, ...taken.end]);
    taken.logged({ end: true });
    events.postWithNext({ type: 'step_end', step: 2 });
    await events.barrier();
    expect(calls).toEqual([1]);
  });

  it('is appended by a closeOpenStep of an exit path, which writes nothing more', async () => {
    const { inner, log } = recordingLog();
    const { events } = jointRunEvents(log);
    events.post({ type: 'step_start', step: 1 });
    await events.settled;
    events.postWithNext({ type: 'step_end', step: 1 });
    await events.closeOpenStep();
    await events.settled;
    expect((await inner.read(RUN)).map((event) => event.type)).toEqual(['step_start', 'step_end']);
    expect(events.openStep).toBeUndefined();
  });
});
