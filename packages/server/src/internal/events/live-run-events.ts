import type { AgentEvent } from '@awaken/contract';

/** The events of one activation executing in this process, as the runtime yields them. */
interface LiveRun {
  /** This activation's events so far, in seq order (each already appended to the event log). */
  events: AgentEvent[];
  ended: boolean;
  /** Announced by `expect` and not published yet: its activation may still start here. */
  expected: boolean;
  /** Woken on every new event and at the end. */
  wakers: Set<() => void>;
}

function wakeAll(run: LiveRun): void {
  if (run.wakers.size === 0) return;
  const wakers = [...run.wakers];
  run.wakers.clear();
  for (const waker of wakers) waker();
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
  readonly #onEvent: ((runId: string, event: AgentEvent) => void) | undefined;

  /** `onEvent`: told of every published event, in order (it must not throw). */
  constructor(onEvent?: (runId: string, event: AgentEvent) => void) {
    this.#onEvent = onEvent;
  }

  /**
   * Announces that an activation of a run nobody has executed yet (a run just created, no event
   * logged) is about to start in this process: its readers wait in memory for it instead of polling
   * the empty log. Returns `withdraw`, to call once the activation is published or will not start
   * here (another process claimed the run, the thread gate deferred it): an announcement never
   * published then ends, and its readers go back to the log. Only for a run whose log is empty: a
   * reader waits for events from seq 1 on.
   */
  expect(runId: string): () => void {
    if (this.#runs.has(runId)) return () => {};
    const run: LiveRun = { events: [], ended: false, expected: true, wakers: new Set() };
    this.#runs.set(runId, run);
    return () => {
      if (!run.expected) return;
      run.expected = false;
      run.ended = true;
      if (this.#runs.get(runId) === run) this.#runs.delete(runId);
      wakeAll(run);
    };
  }

  /** Reads an activation's events into the hub until they end; never throws. */
  publish(runId: string, events: AsyncIterable<AgentEvent>): void {
    const announced = this.#runs.get(runId);
    // the activation an `expect` announced: its waiting readers stay subscribed
    const run: LiveRun =
      announced?.expected === true
        ? announced
        : { events: [], ended: false, expected: false, wakers: new Set() };
    run.expected = false;
    this.#runs.set(runId, run);
    const wake = () => wakeAll(run);
    void (async () => {
      try {
        for await (const event of events) {
          run.events.push(event);
          this.#onEvent?.(runId, event);
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
   * `afterSeq` without a gap, a page at a time (every event the activation yielded since the last
   * page): returns after a `run_finish` (`finished: true`), or with `finished: false` when there is
   * no such activation, it does not reach back to `afterSeq + 1` (read the log first), it ended, or
   * `signal` aborted — the caller then reads the log. `out.seq` is the last event handed out.
   */
  async *followPages(
    runId: string,
    afterSeq: number,
    signal: AbortSignal | undefined,
    out: { seq: number; finished: boolean },
  ): AsyncGenerator<AgentEvent[]> {
    out.seq = afterSeq;
    out.finished = false;
    const run = this.#runs.get(runId);
    if (!run) return;
    let index = 0;
    for (;;) {
      if (signal?.aborted) return;
      const first = run.events[0];
      if (first && first.seq > out.seq + 1) return;
      const page: AgentEvent[] = [];
      let gap = false;
      while (index < run.events.length) {
        const event = run.events[index] as AgentEvent;
        index += 1;
        if (event.seq <= out.seq) continue;
        if (event.seq !== out.seq + 1) {
          gap = true;
          break;
        }
        out.seq = event.seq;
        page.push(event);
        if (event.type === 'run_finish') {
          out.finished = true;
          break;
        }
      }
      if (page.length > 0) yield page;
      if (gap || out.finished) return;
      // events pushed while the page was out are handed out before an end is heard (the last ones,
      // a run's step_end and run_finish, can come in one write, just before the activation ends)
      if (index < run.events.length) continue;
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

  /** Whether an activation of the run executes (or is announced to start) in this process now. */
  has(runId: string): boolean {
    return this.#runs.has(runId);
  }
}
