import { AwakenError } from '@awaken/contract';
import type { FunctionCall } from './function-call';

type Entry =
  | { kind: 'call'; call: FunctionCall; resolve(reply: string): void; reject(error: unknown): void }
  | { kind: 'task'; run(): Promise<unknown>; resolve(value: unknown): void; reject(error: unknown): void };

/**
 * Runs one store instance's calls in call order, one message at a time (what a single connection
 * gives the memory and Redis stores), with the function calls that queue up sent together: the calls
 * made in one tick, and those made while a message is out, go as one message (one round trip), each
 * answered on its own (see `PgDb.callFunctions`). Other work (reads, rare writes) runs alone, in its
 * turn, so nothing overtakes a call made before it.
 */
export class CallPipe {
  readonly #send: (calls: FunctionCall[]) => Promise<(string | AwakenError)[]>;
  readonly #maxBatch: number;
  #queue: Entry[] = [];
  #busy = false;

  constructor(send: (calls: FunctionCall[]) => Promise<(string | AwakenError)[]>, maxBatch: number) {
    this.#send = send;
    this.#maxBatch = maxBatch;
  }

  /** The function's reply (its text result). */
  call(call: FunctionCall): Promise<string> {
    return new Promise<string>((resolve, reject) => {
      this.#push({ kind: 'call', call, resolve, reject });
    });
  }

  /** `run`'s result, once every call made before it has been answered. */
  task<T>(run: () => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.#push({ kind: 'task', run, resolve: resolve as (value: unknown) => void, reject });
    });
  }

  #push(entry: Entry): void {
    this.#queue.push(entry);
    if (this.#busy) return;
    this.#busy = true;
    // after the tick's synchronous code and promise callbacks: the tick's calls go together
    process.nextTick(() => void this.#drain());
  }

  async #drain(): Promise<void> {
    while (this.#queue.length > 0) {
      const head = this.#queue[0] as Entry;
      if (head.kind === 'task') {
        this.#queue.shift();
        try {
          head.resolve(await head.run());
        } catch (error) {
          head.reject(error);
        }
        continue;
      }
      let count = 0;
      while (count < this.#queue.length && count < this.#maxBatch && this.#queue[count]?.kind === 'call') {
        count += 1;
      }
      const batch = this.#queue.splice(0, count) as Extract<Entry, { kind: 'call' }>[];
      try {
        const replies = await this.#send(batch.map((entry) => entry.call));
        batch.forEach((entry, index) => {
          const reply = replies[index];
          if (AwakenError.isInstance(reply)) entry.reject(reply);
          else entry.resolve(reply as string);
        });
      } catch (error) {
        for (const entry of batch) entry.reject(error);
      }
      // let the answered callers' next calls (made in their promise callbacks) join the next message
      await new Promise((resolve) => process.nextTick(resolve));
    }
    this.#busy = false;
  }
}
