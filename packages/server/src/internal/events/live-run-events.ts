import type { AgentEvent } from '@awaken/contract';

/** The events of one activation executing in this process, as the runtime yields them. */
interface LiveRun {
  /** This activation's events so far, in seq order (each already appended to the event log). */
  events: AgentEvent[];
  ended: boolean;
  /** Woken on every new event and at the end. */
  wakers: Set<() => void>;
}

/**
 * In-process fan-out of the activations this process executes: a reader of a local run gets its
 * events from memory instead of polling the event log. The runtime yields an event only after its
 * append succeeded, so every event here is already in the log — the log stays the source of truth
 * (a reader catches up from it, and falls back to it when the activation ends without a
 * `run_finish`, or when the run executes elsewhere).
 */
export class LiveRunEvents {
  readonly #runs = new Map<string, LiveRun>();

  /** Reads an activation's events into the hub until they end; never throws. */
  publish(runId: string, events: AsyncIterable<AgentEvent>): void {
    const run: LiveRun = { events: [], ended: false, wakers: new Set() };
    this.#runs.set(runId, run);
    const wake = () => {
      const wakers = [...run.wakers];
      run.wakers.clear();
      for (const waker of wakers) waker();
    };
    void (async () => {
      try {
        for await (const event of events) {
          run.events.push(event);
          wake();
        }
      } catch {
        // the activation failed: its readers go back to the event log
      } finally {
        run.ended = true;
        if (this.#runs.get(runId) === run) this.#runs.delete(runId);
        wake();
      }
    })();
  }

  /**
   * The run's events after `afterSeq` from the activation executing here, as long as they continue
   * `afterSeq` without a gap: returns after a `run_finish` (`finished: true`), or with
   * `finished: false` when there is no such activation, it does not reach back to `afterSeq + 1`
   * (read the log first), it ended, or `signal` aborted — the caller then reads the log.
   */
  async *follow(
    runId: string,
    afterSeq: number,
    signal: AbortSignal | undefined,
    out: { seq: number; finished: boolean },
  ): AsyncGenerator<AgentEvent> {
    out.seq = afterSeq;
    out.finished = false;
    const run = this.#runs.get(runId);
    if (!run) return;
    let index = 0;
    for (;;) {
      if (signal?.aborted) return;
      const first = run.events[0];
      if (first && first.seq > out.seq + 1) return;
      while (index < run.events.length) {
        const event = run.events[index] as AgentEvent;
        index += 1;
        if (event.seq <= out.seq) continue;
        if (event.seq !== out.seq + 1) return;
        out.seq = event.seq;
        yield event;
        if (event.type === 'run_finish') {
          out.finished = true;
          return;
        }
      }
      if (run.ended) return;
      await new Promise<void>((resolve) => {
        const onAbort = () => resolve();
        run.wakers.add(() => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        });
        signal?.addEventListener('abort', onAbort, { once: true });
      });
    }
  }

  /** Whether an activation of the run executes in this process now. */
  has(runId: string): boolean {
    return this.#runs.has(runId);
  }
}
