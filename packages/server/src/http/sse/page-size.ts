/**
 * How many events an SSE stream reads from the log at a time. A stream never reads the rest of the
 * log at once: a client that stops reading would make the server hold all of it (in the stream's
 * queue and the socket's write buffer) until it disconnects. A page holds at most `maxEvents`
 * events, and shrinks (down to one event) when events are large, so that a page stays near
 * `maxBytes` of frames: a stalled client costs about one page of memory, whatever the log's size.
 */
export class PageSize {
  readonly maxEvents: number;
  readonly maxBytes: number;
  #limit: number;

  constructor(options: { maxEvents?: number; maxBytes?: number } = {}) {
    this.maxEvents = options.maxEvents ?? DEFAULT_PAGE_EVENTS;
    this.maxBytes = options.maxBytes ?? DEFAULT_PAGE_BYTES;
    this.#limit = this.maxEvents;
  }

  /** The `limit` of the next read. */
  get limit(): number {
    return this.#limit;
  }

  /** Sizes the next page from the average frame size of the last one. */
  observe(events: number, bytes: number): void {
    if (events <= 0 || bytes <= 0) return;
    const perEvent = bytes / events;
    this.#limit = Math.max(1, Math.min(this.maxEvents, Math.floor(this.maxBytes / perEvent)));
  }
}

export const DEFAULT_PAGE_EVENTS = 256;
export const DEFAULT_PAGE_BYTES = 64 * 1024;
