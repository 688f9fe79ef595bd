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
