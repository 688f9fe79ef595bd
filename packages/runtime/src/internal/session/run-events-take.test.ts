import { type AgentEvent, AwakenError, type RunEventLog } from '@awaken/contract';
import { createMemoryRunEventLog } from '@awaken/store-memory';
import { describe, expect, it, vi } from 'vitest';
import type { RuntimeBookkeeping } from './runtime-bookkeeping';
import { Activation, createWakeSignal } from './activation';
import { createEventChannel } from './event-channel';
import { RunEvents } from './run-events';

const RUN = 'run-1';

/** A memory event log whose first append waits for `fail()` and then throws (a store blip). */
function blippingLog() {
  const inner = createMemoryRunEventLog();
  const log = Object.create(inner) as RunEventLog;
  let calls = 0;
  let fail: () => void = () => {};
  const failing = new Promise<void>((resolve) => {
    fail = resolve;
  });
  log.append = async (runId, events, options) => {
    calls += 1;
    if (calls === 1) {
      await failing;
      throw new AwakenError('store_failure', 'store down', { retryable: true });
    }
    return inner.append(runId, events, options);
  };
  return { inner, log, fail, started: () => calls > 0 };
}

/** RunEvents of a runtime whose store offers the joint write (checkpoints take the queued events). */
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
    jointCheckpoints: true,
    bookkeeping,
    activation,
  });
  return { events, bookkeeping };
}

describe('RunEvents.takeForCheckpoint after a failed posted append', () => {
  it('drops the posted events queued behind the failed ones, as the barrier does: nothing is logged over the gap', async () => {
    const { inner, log, fail, started } = blippingLog();
    const { events, bookkeeping } = jointRunEvents(log);
    events.post({ type: 'text_start', messageId: 'm' });
    await vi.waitFor(() => expect(started()).toBe(true));
    // queued while the append of text_start is in flight
    events.post({ type: 'text_delta', messageId: 'm', delta: 'x' });
    const taking = events.takeForCheckpoint();
    fail();
    await expect(taking).rejects.toThrow('store down');
    await events.settled;
    // the text_delta after the lost text_start is not logged (a reader would see a delta of no text)
    expect(await inner.read(RUN)).toEqual([]);
    expect(bookkeeping.lastSeq).toBe(0);
    // heard once: the next event takes the seq the failed ones did not use
    await events.emit({ type: 'step_start', step: 1 });
    expect((await inner.read(RUN)).map((event) => [event.seq, event.type])).toEqual([[1, 'step_start']]);
  });

  it('takes nothing of a failed batch when an awaited event behind it heard the failure', async () => {
    const { inner, log, fail, started } = blippingLog();
    const { events, bookkeeping } = jointRunEvents(log);
    events.post({ type: 'text_start', messageId: 'm' });
    await vi.waitFor(() => expect(started()).toBe(true));
    events.post({ type: 'text_delta', messageId: 'm', delta: 'x' });
    const awaited = events.emit({ type: 'text_end', messageId: 'm' });
    events.post({ type: 'step_start', step: 2 });
    const taking = events.takeForCheckpoint();
    fail();
    // the awaited event hears the failure (as the drain would tell it); what follows it is taken
    await expect(awaited).rejects.toThrow('store down');
    const taken = await taking;
    expect(taken.events.map((event) => [event.seq, event.type])).toEqual([[1, 'step_start']]);
    await inner.append(RUN, taken.events);
    taken.logged();
    expect(bookkeeping.lastSeq).toBe(1);
    expect((await inner.read(RUN)).map((event) => event.type)).toEqual(['step_start']);
  });
});
