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

/**
 * One {@link Lane} per key (a run): calls about one run take effect in call order (an append then a
 * finish started in the same tick land in that order), calls about different runs run in parallel.
 */
export class KeyedLanes {
  readonly #tails = new Map<string, Promise<unknown>>();

  run<T>(laneKey: string, call: () => Promise<T>): Promise<T> {
    const previous = this.#tails.get(laneKey) ?? Promise.resolve();
    const result = previous.then(call, call);
    const tail = result.catch(() => undefined);
    this.#tails.set(laneKey, tail);
    void tail.then(() => {
      if (this.#tails.get(laneKey) === tail) this.#tails.delete(laneKey);
    });
    return result;
  }
}
