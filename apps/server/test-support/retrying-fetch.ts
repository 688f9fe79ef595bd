import { api } from './app-process';

/**
 * A `fetch` for a protocol client (the `ai` chat transport, `@ag-ui/client`, `@a2a-js/sdk`) that
 * loses the answer of its next POST and sends the very same request again — what a client with a
 * retry on timeout or on a dropped connection does. The first answer is lost once the server took the
 * request: when its response starts (a stream), or when `taken()` resolves (a blocking call, whose
 * answer comes only at the end). The retry goes to `retryTo(url)` (another process) when given.
 */
export function retryingFetch(
  options: { base?: typeof fetch; retryTo?: (url: string) => string; taken?: () => Promise<unknown> } = {},
) {
  const base = options.base ?? fetch;
  let armed = false;
  let retries = 0;
  const fetcher = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    if (!armed || init?.method !== 'POST') return base(input, init);
    armed = false;
    const lost = new AbortController();
    const first = base(input, { ...init, signal: lost.signal }).then(
      async (response) => {
        await response.body?.cancel();
      },
      () => undefined,
    );
    if (options.taken) {
      await options.taken();
      lost.abort();
    }
    await first;
    retries += 1;
    return base(options.retryTo ? options.retryTo(String(input)) : input, init);
  };
  return {
    fetch: fetcher as typeof fetch,
    /** Loses the answer of the next POST and sends it again. */
    retryNext() {
      armed = true;
    },
    /** How many requests were sent again. */
    retries: () => retries,
  };
}

/** What a thread holds: its runs (and their statuses) and how many times `send_invoice` ran. */
export async function threadTally(
  url: string,
  threadId: string,
  token?: string,
): Promise<{ runs: string[]; invoices: number }> {
  const auth = token ? { token } : {};
  const runs = await api(url, `/v1/threads/${encodeURIComponent(threadId)}/runs?limit=100`, auth);
  const messages = await api(url, `/v1/threads/${encodeURIComponent(threadId)}/messages?limit=1000`, auth);
  if (runs.status !== 200 || messages.status !== 200)
    throw new Error(`thread ${threadId}: ${runs.status} ${messages.status}`);
  const invoices = messages.body.items
    .map((item: any) => item.message ?? item)
    .filter((message: any) => message.role === 'tool' && message.toolName === 'send_invoice');
  return { runs: runs.body.items.map((run: any) => run.status), invoices: invoices.length };
}
