import type { AgentEvent, AgentEventInput, RunEventLog } from '@awaken/contract';
import type { Activation } from './activation';
import type { EventChannel } from './event-channel';
import type { RuntimeBookkeeping } from './runtime-bookkeeping';

/** An event waiting for its append; `posted`: nobody awaits it (see `RunEvents.post`). */
interface Pending {
  input: AgentEventInput;
  at: number;
  posted: boolean;
  /** Starts no append of its own: goes with the next one or the next joint write (`postWithNext`). */
  withNext?: boolean;
  resolve(): void;
  reject(error: unknown): void;
}

/** Events a joint write took from the queue (see `RunEvents.takeForCheckpoint`). */
export interface TakenEvents {
  readonly events: readonly AgentEvent[];
  /** The run's last events, stamped after `events`, written only with a committed checkpoint. */
  readonly end: readonly AgentEvent[];
  /** The write appended `events`, and `end` too when `end` is true. */
  logged(options?: { end: boolean }): void;
  notLogged(): void;
}

/** At most this many events go into one append. */
const MAX_BATCH = 256;

/**
 * The events part of a session: stamps each event with the run id and the next seq, appends it to
 * the event log (under the activation's fence) before yielding it, and tracks the open step so every
 * exit path can close it. Appends are group-committed: events emitted while an append is in flight
 * go into the next append together (one store call), still in order and before any is yielded.
 */
export class RunEvents {
  /** The step whose `step_start` this activation emitted and whose `step_end` it has not (framing). */
  openStep: number | undefined;
  /** JSON of the last `state_snapshot` of this activation; undefined before the first check. */
  lastSnapshot: string | undefined;
  readonly #queue: Pending[] = [];
  /** The drain in flight (set and cleared synchronously with the queue check, so none is missed). */
  #draining: Promise<void> | undefined;
  /** The failure of an append only posted events were waiting on: the next awaited emit gets it. */
  #failure: { error: unknown } | undefined;
  /** A joint write holds the queue (see `takeForCheckpoint`): no append starts meanwhile. */
  #held = false;
  /** The append in flight (delivery included). */
  #appending: Promise<void> | undefined;
  /** The events of the append in flight. */
  #inFlight: Pending[] | undefined;

  constructor(
    private readonly parts: {
      runId: string;
      channel: EventChannel<AgentEvent>;
      eventLog: RunEventLog | undefined;
      now: () => number;
      /** The store writes checkpoints together with the events before them (CheckpointWithEvents). */
      jointCheckpoints?: boolean;
      /** Holds `lastSeq`, the seq of the last event emitted (stored with each checkpoint). */
      bookkeeping: RuntimeBookkeeping;
      activation: Activation;
    },
  ) {}

  /** Settles once every event emitted so far is logged (or failed); never rejects. */
  get settled(): Promise<void> {
    return this.#draining ?? Promise.resolve();
  }

  /**
   * Waits until every event emitted or posted so far is logged, and rejects with the failure of an
   * append that only posted events waited on (then clears it, as an awaited `emit` would). Every
   * checkpoint passes this barrier before it reads `lastSeq`, so a checkpoint never covers an event
   * the log lost, and the loop hears of a failed posted append at its next checkpoint at the latest.
   */
  async barrier(): Promise<void> {
    // events posted to go with the next write are not left behind by a barrier
    if (this.#queue.length > 0 && !this.#draining && !this.#held) this.#draining = this.#drain();
    await this.settled;
    this.#throwFailure();
  }

  /** Throws (once) the failure of an append only posted events waited on. */
  #throwFailure(): void {
    const failure = this.#failure;
    if (failure === undefined) return;
    this.#failure = undefined;
    throw failure.error;
  }

  /**
   * Stamps, logs (before yielding) and yields one event. With an event log, appends run one after the
   * other and a seq is used only once its append succeeded, so a failed append leaves no gap.
   */
  emit(input: AgentEventInput): Promise<void> {
    return this.#enqueue(input, false);
  }

  /**
   * Emits without waiting for the append, so a burst (a model's stream) shares one store call. A
   * failure of that append is not lost: the next awaited `emit` rejects with it (and appends
   * nothing), and posted events after the failed ones are dropped until then — as when each was
   * awaited, nothing after a failed event is logged before the caller hears of the failure.
   */
  post(input: AgentEventInput): void {
    this.#enqueue(input, true).catch(() => {});
  }

  /**
   * Posts an event that, with joint checkpoints, starts no append of its own: it goes out with the
   * next append (any event emitted or posted after it) or the next joint write, whichever comes
   * first — a step's `step_end`, which would otherwise cost a write alone while the loop reads its
   * inbox. Without joint checkpoints it is `post`. The loop always writes again after it (the next
   * step, a checkpoint, the run's end), and `barrier` appends it.
   */
  postWithNext(input: AgentEventInput): void {
    this.#enqueue(input, true, this.parts.jointCheckpoints === true).catch(() => {});
  }

  #enqueue(input: AgentEventInput, posted: boolean, withNext = false): Promise<void> {
    const { eventLog, activation } = this.parts;
    const at = this.parts.now();
    if (!eventLog) {
      if (activation.lost) return Promise.reject(activation.halt);
      this.#deliver(this.#stamp(input, at, 0));
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      this.#queue.push({ input, at, posted, withNext, resolve, reject });
      if (!withNext && !this.#draining && !this.#held) this.#draining = this.#drain(posted);
    });
  }

  #stamp(input: AgentEventInput, at: number, offset: number): AgentEvent {
    const { runId, bookkeeping } = this.parts;
    return { ...input, runId, seq: bookkeeping.lastSeq + 1 + offset, at } as AgentEvent;
  }

  #deliver(event: AgentEvent): void {
    this.parts.bookkeeping.lastSeq = event.seq;
    this.parts.channel.push(event);
    if (event.type === 'step_start') this.openStep = event.step;
    else if (event.type === 'step_end') this.openStep = undefined;
  }

  /**
   * Appends the queue in batches. The first append starts after the emitting code ran on (as a
   * `then` did), so a burst shares it. With joint checkpoints, one started by a posted event waits
   * for the current macrotask to end, so a checkpoint the loop reaches without waiting on I/O takes
   * those events into its own write (readers still get each event as soon as the loop waits).
   */
  async #drain(posted = false): Promise<void> {
    if (posted && this.parts.jointCheckpoints) await new Promise<void>((resolve) => setImmediate(resolve));
    else await Promise.resolve();
    while (this.#queue.length > 0 && !this.#held) {
      if (this.#failure) {
        this.#dropAfterFailure();
        continue;
      }
      const batch = this.#queue.splice(0, MAX_BATCH);
      this.#inFlight = batch;
      this.#appending = this.#append(batch);
      await this.#appending;
      this.#appending = undefined;
      this.#inFlight = undefined;
    }
    // cleared with no await after the queue was seen empty: an emit from now on starts a new drain
    this.#draining = undefined;
  }

  /**
   * After a failed append only posted events waited on: the posted events queued behind it are
   * dropped (rejected), up to the first awaited one, which hears the failure (and clears it).
   */
  #dropAfterFailure(): void {
    while (this.#failure && this.#queue.length > 0) {
      const next = this.#queue.shift() as Pending;
      next.reject(this.#failure.error);
      if (!next.posted) this.#failure = undefined;
    }
  }

  /** Appends one batch and delivers it, or rejects it (a posted-only batch's failure is kept). */
  async #append(batch: Pending[]): Promise<void> {
    const { runId, eventLog, activation } = this.parts;
    try {
      activation.throwIfLost();
      const events = batch.map((pending, index) => this.#stamp(pending.input, pending.at, index));
      try {
        await eventLog?.append(runId, events, { fence: activation.fence });
      } catch (error) {
        throw activation.writeFailed(error);
      }
      for (const event of events) this.#deliver(event);
      for (const pending of batch) pending.resolve();
    } catch (error) {
      for (const pending of batch) pending.reject(error);
      if (batch.every((pending) => pending.posted)) this.#failure = { error };
    }
  }

  /**
   * For a checkpoint written together with the events before it (a store's `CheckpointWithEvents`):
   * passes the barrier (the append in flight settles; a failed posted append rejects), then takes
   * the events not yet appended out of the queue, stamped from the next seq. Until the returned
   * `logged` or `notLogged` is called the queue is held: events emitted meanwhile wait behind them.
   * `logged`: the write appended them (they are delivered, as after an append); `notLogged`: it did
   * not (they go back to the head of the queue unstamped, as if never taken, and are appended by
   * the next append or joint write — or rejected once the activation is lost).
   */
  async takeForCheckpoint(endInputs: readonly AgentEventInput[] = []): Promise<TakenEvents> {
    // more than one append's worth waiting: those go the usual way first
    while (this.#queue.length > MAX_BATCH) await this.barrier();
    this.#held = true;
    try {
      // only the append in flight is waited for: a drain still waiting to start stops at the hold
      while (this.#appending) await this.#appending;
      // as a drain would: nothing queued behind a failed append is logged over the gap it left
      this.#dropAfterFailure();
      this.#throwFailure();
      this.parts.activation.throwIfLost();
    } catch (error) {
      this.#release();
      throw error;
    }
    const batch = this.#queue.splice(0, this.#queue.length);
    const events = batch.map((pending, index) => this.#stamp(pending.input, pending.at, index));
    const at = this.parts.now();
    const end = endInputs.map((input, index) => this.#stamp(input, at, events.length + index));
    let open = true;
    return {
      events,
      end,
      logged: (options) => {
        if (!open) return;
        open = false;
        for (const event of events) this.#deliver(event);
        if (options?.end) for (const event of end) this.#deliver(event);
        for (const pending of batch) pending.resolve();
        this.#release();
      },
      notLogged: () => {
        if (!open) return;
        open = false;
        this.#queue.unshift(...batch);
        this.#release();
      },
    };
  }

  /** Ends a hold: an append starts for whatever queued meanwhile. */
  #release(): void {
    this.#held = false;
    const due = this.#queue.some((pending) => !pending.withNext);
    if (due && !this.#draining) this.#draining = this.#drain();
  }

  /**
   * Closes the step this activation opened with a `step_end` event (framing only: the StepEnd phase
   * runs when a step's tool round completes). Every exit path calls it, so adapters always see
   * `step_start` … `step_end`.
   */
  async closeOpenStep(options?: { withNext?: boolean }): Promise<void> {
    if (this.openStep === undefined) return;
    if (this.#closing(this.openStep)) {
      // a step_end waiting for the next write goes now: an exit path may write nothing more
      if (!options?.withNext && !this.#draining && !this.#held) this.#draining = this.#drain();
      return;
    }
    const input = { type: 'step_end', step: this.openStep } as const;
    if (options?.withNext && this.parts.jointCheckpoints) this.postWithNext(input);
    else await this.emit(input);
  }

  /**
   * A `step_end` of `step` is already on its way to the log (queued — posted by the StepEnd phase —
   * or in the append in flight): it will be logged before anything emitted after it, or its failure
   * heard by the next awaited emit, so a second one would only repeat it (and cost a write of its own).
   */
  #closing(step: number): boolean {
    const isEnd = (pending: Pending) => pending.input.type === 'step_end' && pending.input.step === step;
    return this.#queue.some(isEnd) || (this.#inFlight?.some(isEnd) ?? false);
  }
}
