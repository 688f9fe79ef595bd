import type { AgentEvent } from '@awaken/contract';

/** What one read of an event source gave: events (none when it stayed quiet), or its end. */
export interface EventPage {
  events: AgentEvent[];
  /** The source has nothing more (it returned). */
  ended: boolean;
}

const QUIET = Symbol('quiet');

/**
 * Reads a source of event pages (a run followed in this process: `MailboxService.followPages`) for a
 * stream that writes one chunk per read: waits up to `waitMs` for the next page (an empty, not ended
 * page when none came: time for a keep-alive) and hands out at most `limit` events of it, keeping the
 * rest for the next read — so a client that stops reading holds one page, and events pushed from
 * memory in a burst leave in one socket write, not one per event. At most one `next()` is pending.
 */
export function iterablePages(source: AsyncIterable<AgentEvent[]>) {
  const iterator = source[Symbol.asyncIterator]();
  let pending: Promise<IteratorResult<AgentEvent[]>> | undefined;
  let rest: AgentEvent[] = [];

  return {
    async read(limit: number, waitMs: number): Promise<EventPage> {
      if (rest.length === 0) {
        pending ??= iterator.next();
        let timer: NodeJS.Timeout | undefined;
        const quiet = new Promise<typeof QUIET>((resolve) => {
          timer = setTimeout(() => resolve(QUIET), waitMs);
        });
        const next = await Promise.race([pending, quiet]).finally(() => clearTimeout(timer));
        if (next === QUIET) return { events: [], ended: false };
        pending = undefined;
        if (next.done) return { events: [], ended: true };
        rest = next.value;
      }
      const events = rest.length <= limit ? rest : rest.slice(0, limit);
      rest = rest.length <= limit ? [] : rest.slice(limit);
      return { events, ended: false };
    },
    /** Ends the source (the stream closed). */
    close(): void {
      void iterator.return?.(undefined)?.catch(() => undefined);
    },
  };
}
