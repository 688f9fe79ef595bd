import type { AgentEvent, AgentEventInput, RunEventLog } from '@awaken/contract';
import type { Activation } from './activation';
import type { RuntimeBookkeeping } from '../checkpoint/run-state-codec';

/**
 * The events part of a session: stamps each event with the run id and the next seq, appends it to
 * the event log (under the activation's fence) before yielding it, and tracks the open step so every
 * exit path can close it.
 */
export class RunEvents {
  /** Appends to the event log, one after the other, so seq numbers stay dense. */
  settled: Promise<void> = Promise.resolve();
  /** The step whose `step_start` this activation emitted and whose `step_end` it has not (framing). */
  openStep: number | undefined;
  /** JSON of the last `state_snapshot` of this activation; undefined before the first check. */
  lastSnapshot: string | undefined;

  constructor(
    private readonly parts: {
      runId: string;
      channel: EventChannel<AgentEvent>;
      eventLog: RunEventLog | undefined;
      now: () => number;
      /** Holds `lastSeq`, the seq of the last event emitted (stored with each checkpoint). */
      bookkeeping: RuntimeBookkeeping;
      activation: Activation;
    },
  ) {}

  /**
   * Stamps, logs (before yielding) and yields one event. With an event log, appends run one after the
   * other and a seq is used only once its append succeeded, so a failed append leaves no gap.
   */
  emit(input: AgentEventInput): Promise<void> {
    const { runId, channel, eventLog, bookkeeping, activation } = this.parts;
    const at = this.parts.now();
    const stamp = (): AgentEvent => ({ ...input, runId, seq: bookkeeping.lastSeq + 1, at }) as AgentEvent;
    const deliver = (event: AgentEvent) => {
      bookkeeping.lastSeq = event.seq;
      channel.push(event);
      if (event.type === 'step_start') this.openStep = event.step;
      else if (event.type === 'step_end') this.openStep = undefined;
    };
    if (!eventLog) {
      if (activation.lost) return Promise.reject(activation.halt);
      deliver(stamp());
      return Promise.resolve();
    }
    const job = this.settled.then(async () => {
      activation.throwIfLost();
      const event = stamp();
      try {
        await eventLog.append(runId, [event], { fence: activation.fence });
      } catch (error) {
        throw activation.writeFailed(error);
      }
      deliver(event);
    });
    this.settled = job.catch(() => {});
    return job;
  }

  /**
   * Closes the step this activation opened with a `step_end` event (framing only: the StepEnd phase
   * runs when a step's tool round completes). Every exit path calls it, so adapters always see
   * `step_start` … `step_end`.
   */
  async closeOpenStep(): Promise<void> {
    if (this.openStep !== undefined) await this.emit({ type: 'step_end', step: this.openStep });
  }
}

/**
 * An unbounded single-reader async queue. Producers never wait; the reader sees every pushed item in
 * order, then the end (or the error given to `close`).
 */
export interface EventChannel<T> extends AsyncIterable<T> {
  push(item: T): void;
  close(error?: unknown): void;
}

export function createEventChannel<T>(): EventChannel<T> {
  const buffer: T[] = [];
  let head = 0;
  let closed = false;
  let failure: unknown;
  let wake: (() => void) | undefined;
  let iterated = false;

  const notify = () => {
    const current = wake;
    wake = undefined;
    current?.();
  };

  async function* iterate(): AsyncGenerator<T> {
    while (true) {
      if (head < buffer.length) {
        const item = buffer[head] as T;
        buffer[head] = undefined as T;
        head += 1;
        if (head > 1024 && head * 2 > buffer.length) {
          buffer.splice(0, head);
          head = 0;
        }
        yield item;
        continue;
      }
      if (closed) {
        if (failure !== undefined) throw failure;
        return;
      }
      await new Promise<void>((resolve) => {
        wake = resolve;
      });
    }
  }

  return {
    push(item) {
      if (closed) return;
      buffer.push(item);
      notify();
    },
    close(error) {
      if (closed) return;
      closed = true;
      failure = error;
      notify();
    },
    [Symbol.asyncIterator]() {
      if (iterated) throw new Error('run events can be iterated only once');
      iterated = true;
      return iterate();
    },
  };
}
