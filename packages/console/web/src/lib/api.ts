/** The API base the server put in the page (`''`: the same origin's `/v1`). */
export const API_BASE =
  document.querySelector<HTMLMetaElement>('meta[name="awaken-api-base"]')?.content.replace(/\/$/, '') ?? '';

const TOKEN_KEY = 'awaken-console-token';

/** The bearer token, kept in this tab's session storage only. */
export const token = {
  get: (): string => sessionStorage.getItem(TOKEN_KEY) ?? '',
  set: (value: string) => sessionStorage.setItem(TOKEN_KEY, value),
  clear: () => sessionStorage.removeItem(TOKEN_KEY),
};

/** An API error with the server's code and message. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

const listeners = new Set<() => void>();
/** Called whenever the server answers 401 (the console then asks for a token). */
export function onUnauthorized(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function authHeaders(): Record<string, string> {
  const value = token.get();
  return value ? { authorization: `Bearer ${value}` } : {};
}

/** A JSON request to the API; throws {@link ApiError} for a non-2xx answer. */
export async function api<T = any>(path: string, init: { method?: string; body?: unknown } = {}): Promise<T> {
  const response = await fetch(`${API_BASE}${path}`, {
    method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
    headers: { ...authHeaders(), ...(init.body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });
  if (response.status === 401) for (const listener of listeners) listener();
  const text = await response.text();
  const body = text ? JSON.parse(text) : undefined;
  if (!response.ok) {
    throw new ApiError(
      response.status,
      body?.error?.code ?? 'error',
      body?.error?.message ?? response.statusText,
    );
  }
  return body as T;
}

/**
 * Follows a server-sent event stream with the bearer token (EventSource cannot send one), calling
 * `onFrame` per frame, and reconnects after a drop (with `Last-Event-ID` when frames carried ids)
 * until `signal` aborts.
 */
export async function followSse(
  path: string,
  onFrame: (frame: { event: string; id?: string; data: string }) => void,
  signal: AbortSignal,
  options: { reconnect?: boolean; again?: () => boolean } = {},
): Promise<void> {
  let lastId: string | undefined;
  let quiet = false;
  while (!signal.aborted) {
    const before = lastId;
    try {
      const response = await fetch(`${API_BASE}${path}`, {
        headers: { ...authHeaders(), ...(lastId ? { 'last-event-id': lastId } : {}) },
        signal,
      });
      if (response.status === 401) for (const listener of listeners) listener();
      if (!response.ok || !response.body) throw new Error(`stream ${path}: ${response.status}`);
      const reader = response.body.getReader();
      const decoder = new TextDecoder();
      let buffer = '';
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += decoder.decode(value, { stream: true });
        let end = buffer.indexOf('\n\n');
        while (end >= 0) {
          const raw = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          end = buffer.indexOf('\n\n');
          let event = 'message';
          let id: string | undefined;
          const data: string[] = [];
          for (const line of raw.split('\n')) {
            if (line.startsWith('event: ')) event = line.slice(7);
            else if (line.startsWith('id: ')) id = line.slice(4);
            else if (line.startsWith('data: ')) data.push(line.slice(6));
          }
          if (id) lastId = id;
          if (data.length > 0) onFrame({ event, ...(id ? { id } : {}), data: data.join('\n') });
        }
      }
      if (!options.reconnect || options.again?.() === false) return;
      // a stream that ended after new frames is followed at once (a run's log goes on after it waited)
      quiet = lastId === before;
    } catch {
      if (signal.aborted) return;
      quiet = true;
    }
    if (quiet) await new Promise((resolve) => setTimeout(resolve, 2000));
  }
}
