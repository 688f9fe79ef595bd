import { AwakenError } from '@awaken/contract';
import type { FunctionCall } from './function-call';

interface Entry {
  call: FunctionCall;
  resolve(reply: string): void;
  reject(error: unknown): void;
}

/**
 * Sends the function calls of one group (a thread's id) made in the same tick as one message: one
 * round trip, one transaction, in call order (see `PgDb.callFunctions`: each call records its reply,
 * a lost or failed message re-sends them one by one). Unlike the mailbox's `CallPipe` nothing waits
 * for an earlier message: each tick's group goes out at once. The thread-run store sends through it
 * the writes a caller makes side by side on a thread it has just seen absent (`createThread` and
 * `createRun`).
 */
export class TickBatch {
  readonly #send: (calls: FunctionCall[]) => Promise<(string | AwakenError)[]>;
  readonly #groups = new Map<string, Entry[]>();

  constructor(send: (calls: FunctionCall[]) => Promise<(string | AwakenError)[]>) {
    this.#send = send;
  }

  /** The function's text reply, or its refusal thrown. */
  call(group: string, call: FunctionCall): Promise<string> {
    return new Promise<string>((resolve, reject) => {
      const entries = this.#groups.get(group);
      if (entries) {
        entries.push({ call, resolve, reject });
        return;
      }
      this.#groups.set(group, [{ call, resolve, reject }]);
      // after the tick's synchronous code and promise callbacks: the group's calls go together
      process.nextTick(() => void this.#flush(group));
    });
  }

  async #flush(group: string): Promise<void> {
    const entries = this.#groups.get(group) ?? [];
    this.#groups.delete(group);
    try {
      const replies = await this.#send(entries.map((entry) => entry.call));
      entries.forEach((entry, index) => {
        const reply = replies[index];
        if (AwakenError.isInstance(reply)) entry.reject(reply);
        else entry.resolve(String(reply));
      });
    } catch (error) {
      for (const entry of entries) entry.reject(error);
    }
  }
}
