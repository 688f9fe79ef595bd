import { AwakenError } from '@awaken/contract';

interface Pending<I, R> {
  input: I;
  resolve(result: R): void;
  reject(error: unknown): void;
}

/**
 * Combines calls made in the same tick into batches of at most `maxBatch`: each call is queued, and
 * once the current tick's synchronous code and promise callbacks have run (`process.nextTick` after
 * the microtask queue drains), every queued call is sent, `maxBatch` at a time, through `run`, which
 * answers each input in order with its result or its own `AwakenError`. A failure of the whole batch
 * (a lost connection) rejects each call of it with that failure.
 *
 * Used for the mailbox's hot writes (enqueue, ack): concurrent callers share one script call (one
 * round trip, one request record) while each keeps its own checks and its own answer. `flush()` sends
 * the queued calls at once: the store calls it before sending any other command, so a later call
 * never overtakes a queued one (calls take effect in call order, as on one connection).
 */
export class Coalescer<I, R> {
  readonly #run: (inputs: I[]) => Promise<(R | AwakenError)[]>;
  readonly #maxBatch: number;
  #queued: Pending<I, R>[] = [];

  constructor(run: (inputs: I[]) => Promise<(R | AwakenError)[]>, maxBatch: number) {
    this.#run = run;
    this.#maxBatch = maxBatch;
  }

  add(input: I): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      if (this.#queued.length === 0) process.nextTick(() => this.#flush());
      this.#queued.push({ input, resolve, reject });
    });
  }

  /** Sends every queued call now (the tick's scheduled flush then finds nothing to send). */
  flush(): void {
    this.#flush();
  }

  #flush(): void {
    if (this.#queued.length === 0) return;
    const queued = this.#queued;
    this.#queued = [];
    for (let start = 0; start < queued.length; start += this.#maxBatch) {
      this.#send(queued.slice(start, start + this.#maxBatch));
    }
  }

  #send(batch: Pending<I, R>[]): void {
    let results: Promise<(R | AwakenError)[]>;
    try {
      results = this.#run(batch.map((pending) => pending.input));
    } catch (error) {
      results = Promise.reject(error);
    }
    results.then(
      (answers) => {
        batch.forEach((pending, index) => {
          const answer = answers[index] as R | AwakenError;
          if (AwakenError.isInstance(answer)) pending.reject(answer);
          else pending.resolve(answer);
        });
      },
      (error: unknown) => {
        for (const pending of batch) pending.reject(error);
      },
    );
  }
}
