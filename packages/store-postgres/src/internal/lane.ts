/**
 * Runs calls one at a time, in call order: what a single connection gives the memory and Redis stores
 * (the differential test starts several mailbox calls in one tick and expects them applied in order).
 */
export class Lane {
  #tail: Promise<unknown> = Promise.resolve();

  run<T>(call: () => Promise<T>): Promise<T> {
    const result = this.#tail.then(call, call);
    this.#tail = result.catch(() => undefined);
    return result;
  }
}
