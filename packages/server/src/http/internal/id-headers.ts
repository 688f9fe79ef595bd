/**
 * The `x-thread-id` / `x-run-id` response headers of a run, percent-encoded (`encodeURIComponent`;
 * read them with `decodeURIComponent`). An id may hold any Unicode character, but a header value may
 * only hold bytes: Node refuses to write `日本` or an emoji, and that failure would come after the
 * run was submitted — a 500 that makes a retrying client run it twice.
 */
export function idHeaders(ids: { threadId?: string; runId?: string }): Record<string, string> {
  return {
    ...(ids.threadId === undefined ? {} : { 'x-thread-id': encodeURIComponent(ids.threadId) }),
    ...(ids.runId === undefined ? {} : { 'x-run-id': encodeURIComponent(ids.runId) }),
  };
}

/** A header value Node writes as is: tab, and the visible characters of Latin-1. */
const SENDABLE = /^[\t\x20-\x7e\x80-\xff]*$/;

/**
 * Makes every header of `response` sendable, percent-encoding a value Node would refuse, so the
 * status the request log records is the status the client gets. Returns the names it had to fix.
 */
export function sendableHeaders(response: Response): string[] {
  const refused: Array<[string, string]> = [];
  response.headers.forEach((value, name) => {
    if (!SENDABLE.test(value)) refused.push([name, value]);
  });
  const fixed: string[] = [];
  for (const [name, value] of refused) {
    fixed.push(name);
    try {
      response.headers.set(name, encodeURIComponent(value));
    } catch {
      // immutable headers (a fetched response): the warning names it
    }
  }
  return fixed;
}
