import type { AgentEvent, AgentEventInput, RunEventLog } from '@awaken/contract';
import { createMemoryRunEventLog } from '@awaken/store-memory';
import { describe, expect, it } from 'vitest';
import { followRunEventPages, followRunEvents } from './follow-run-events';
import { LiveRunEvents } from './live-run-events';

const RUN = 'run-1';
const FINISH = {
  type: 'run_finish',
  status: 'done',
  termination: { type: 'natural_end' },
  usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0 },
} as AgentEventInput;

function event(seq: number, input: AgentEventInput): AgentEvent {
  return { ...input, runId: RUN, seq, at: 1 } as AgentEvent;
}

/** An activation's events as the runtime yields them: each appended to the log first. */
function activation(log: RunEventLog) {
  const queue: AgentEvent[] = [];
  let wake: (() => void) | undefined;
  let ended = false;
  async function* events(): AsyncGenerator<AgentEvent> {
    for (;;) {
      const next = queue.shift();
      if (next) yield next;
      else if (ended) return;
      else await new Promise<void>((resolve) => (wake = resolve));
    }
  }
  return {
    events: events(),
    async emit(item: AgentEvent) {
      await log.append(RUN, [item]);
      queue.push(item);
      wake?.();
    },
    end() {
      ended = true;
      wake?.();
    },
  };
}

/** Counts the log's range reads, to tell pushed events from polled ones. */
function countingLog(log: RunEventLog): RunEventLog & { reads: number } {
  const counted = Object.create(log) as RunEventLog & { reads: number };
  counted.reads = 0;
  counted.tail = async (...args) => {
    counted.reads += 1;
    return log.tail(...args);
  };
  return counted;
}

describe('LiveRunEvents: readers of a run executing in this process', () => {
  it('reads the log up to the activation, then gets every later event from memory, once and in order', async () => {
    const inner = createMemoryRunEventLog();
    const log = countingLog(inner);
    await inner.append(RUN, [event(1, { type: 'run_start', threadId: 't', agentId: 'a', resumed: false })]);
    const live = new LiveRunEvents();
    const run = activation(inner);
    live.publish(RUN, run.events);
    await run.emit(event(2, { type: 'step_start', step: 1 }));
    const seen: number[] = [];
    const reading = (async () => {
      for await (const item of followRunEvents(log, RUN, {}, live)) seen.push(item.seq);
    })();
    for (let seq = 3; seq <= 20; seq += 1)
      await run.emit(event(seq, { type: 'text_delta', messageId: 'm', delta: 'x' }));
    await run.emit(event(21, FINISH));
    await reading;
    expect(seen).toEqual(Array.from({ length: 21 }, (_, index) => index + 1));
    // one read for the event before the activation (and none per event after it)
    expect(log.reads).toBeLessThanOrEqual(2);
    run.end();
  });

  it('hands out the events pushed while a page was out before it hears the end, with no log read', async () => {
    const inner = createMemoryRunEventLog();
    const log = countingLog(inner);
    const live = new LiveRunEvents();
    const all = [
      event(1, { type: 'run_start', threadId: 't', agentId: 'a', resumed: false }),
      event(2, { type: 'step_end', step: 1 }),
      event(3, FINISH),
    ];
    await inner.append(RUN, all);
    let release = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    // the last two events come in one write, just before the activation ends
    async function* events(): AsyncGenerator<AgentEvent> {
      yield all[0] as AgentEvent;
      await gate;
      yield* all.slice(1);
    }
    live.publish(RUN, events());
    const pages = followRunEventPages(log, RUN, {}, live);
    expect((await pages.next()).value?.map((item: AgentEvent) => item.seq)).toEqual([1]);
    // while the reader holds page 1: the last events are pushed and the activation ends
    release();
    while (live.has(RUN)) await new Promise((resolve) => setImmediate(resolve));
    const rest: number[] = [];
    for await (const page of pages) rest.push(...page.map((item) => item.seq));
    expect(rest).toEqual([2, 3]);
    expect(log.reads).toBe(0);
  });

  it('falls back to the log when the activation ends without a run_finish', async () => {
    const inner = createMemoryRunEventLog();
    const live = new LiveRunEvents();
    const run = activation(inner);
    live.publish(RUN, run.events);
    const seen: number[] = [];
    const reading = (async () => {
      for await (const item of followRunEvents(inner, RUN, { waitMs: 50 }, live)) seen.push(item.seq);
    })();
    await run.emit(event(1, { type: 'run_start', threadId: 't', agentId: 'a', resumed: false }));
    run.end();
    // another process goes on with the run: its events reach the reader through the log
    await inner.append(RUN, [event(2, FINISH)]);
    await reading;
    expect(seen).toEqual([1, 2]);
  });

  it('a reader of an announced run waits in memory and reads nothing from the log', async () => {
    const inner = createMemoryRunEventLog();
    const log = countingLog(inner);
    const live = new LiveRunEvents();
    const withdraw = live.expect(RUN);
    const seen: number[] = [];
    const reading = (async () => {
      for await (const item of followRunEvents(log, RUN, {}, live)) seen.push(item.seq);
    })();
    const run = activation(inner);
    live.publish(RUN, run.events);
    withdraw(); // published: withdrawing changes nothing
    await run.emit(event(1, { type: 'run_start', threadId: 't', agentId: 'a', resumed: false }));
    await run.emit(event(2, FINISH));
    await reading;
    expect(seen).toEqual([1, 2]);
    expect(log.reads).toBe(0);
    run.end();
  });

  it('an announcement withdrawn unpublished sends its readers to the log', async () => {
    const inner = createMemoryRunEventLog();
    const live = new LiveRunEvents();
    const withdraw = live.expect(RUN);
    const seen: number[] = [];
    const reading = (async () => {
      for await (const item of followRunEvents(inner, RUN, { waitMs: 50 }, live)) seen.push(item.seq);
    })();
    // another process executes the run: its events reach the reader through the log only
    await inner.append(RUN, [event(1, { type: 'run_start', threadId: 't', agentId: 'a', resumed: false })]);
    withdraw();
    expect(live.has(RUN)).toBe(false);
    await inner.append(RUN, [event(2, FINISH)]);
    await reading;
    expect(seen).toEqual([1, 2]);
  });

  it('hands a burst the activation yielded while the reader was busy over as one page', async () => {
    const inner = createMemoryRunEventLog();
    const live = new LiveRunEvents();
    const withdraw = live.expect(RUN);
    const run = activation(inner);
    live.publish(RUN, run.events);
    withdraw();
    await run.emit(event(1, { type: 'run_start', threadId: 't', agentId: 'a', resumed: false }));
    for (let seq = 2; seq <= 10; seq += 1)
      await run.emit(event(seq, { type: 'text_delta', messageId: 'm', delta: 'x' }));
    await run.emit(event(11, FINISH));
    const pages: number[][] = [];
    for await (const page of followRunEventPages(inner, RUN, {}, live))
      pages.push(page.map((item) => item.seq));
    expect(pages.flat()).toEqual(Array.from({ length: 11 }, (_, index) => index + 1));
    // one page per burst (the hub may still be taking the last events in as the reader starts), not
    // one per event
    expect(pages.length).toBeLessThanOrEqual(2);
    run.end();
  });
});
