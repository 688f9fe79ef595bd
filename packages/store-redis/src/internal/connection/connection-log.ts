import type { Redis } from 'ioredis';

/** Where a connection-state line goes: one JSON object per line (default: stderr). */
export type ConnectionLogSink = (line: string) => void;

const REPEAT_EVERY_MS = 30_000;
const MIN_GAP_MS = 1_000;

const stderrSink: ConnectionLogSink = (line) => {
  process.stderr.write(`${line}\n`);
};

/** The sink of each client that logs its state: a duplicated connection logs where its base does. */
const sinks = new WeakMap<object, ConnectionLogSink>();

/** The sink `client` logs to, for a connection duplicated from it (stderr when it has none). */
export function sinkOf(client: object): ConnectionLogSink {
  return sinks.get(client) ?? stderrSink;
}

/**
 * Gives a client the store created an `'error'` listener, so a connection failure never becomes
 * ioredis's "Unhandled error event" with a stack per reconnection attempt. It logs one JSON line (no
 * stack) when the connection's state changes — the first failure, another kind of failure, back to
 * ready — at most one per second (suppressed changes are counted in the next line), and repeats a
 * failure that persists once every 30 s with how often it recurred.
 */
export function logConnectionState(
  client: Redis,
  role: string,
  sink: ConnectionLogSink = stderrSink,
  now: () => number = Date.now,
): void {
  sinks.set(client, sink);
  let state = 'ready';
  let lastLineAt = Number.NEGATIVE_INFINITY;
  let unlogged = 0;
  const write = (fields: Record<string, unknown>) => {
    lastLineAt = now();
    const line = {
      level: fields.state === 'ready' ? 'info' : 'warn',
      source: '@awaken/store-redis',
      role,
      ...fields,
    };
    if (unlogged > 0) Object.assign(line, { suppressed: unlogged });
    unlogged = 0;
    sink(JSON.stringify(line));
  };
  client.on('error', (error: Error & { code?: string }) => {
    const next = `error:${error.code ?? error.name}`;
    const elapsed = now() - lastLineAt;
    const due = next === state ? elapsed >= REPEAT_EVERY_MS : elapsed >= MIN_GAP_MS;
    state = next;
    if (!due) {
      unlogged += 1;
      return;
    }
    write({ state: 'error', code: error.code ?? error.name, message: error.message });
  });
  client.on('ready', () => {
    if (state === 'ready') return;
    state = 'ready';
    // recovery is always worth a line: it closes the episode the error lines opened
    write({ state: 'ready', message: 'the Redis connection is ready again' });
  });
}
