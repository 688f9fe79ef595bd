/**
 * Marks a socket whose writes are being gathered until the end of the current tick. A registered
 * symbol, not a module-local set: another copy of this package (another version, sharing the client)
 * sees the hold and leaves the socket alone instead of wrapping the wrapper (whose put-backs, run in
 * either order, left a gathering `write` on the socket for good: every later command unsent).
 */
const HELD = Symbol.for('@awaken/store-redis:tick-writes');

type Method = (this: unknown, ...args: unknown[]) => unknown;

interface HeldStream {
  write: Method;
  end?: Method;
  destroy?: Method;
  [HELD]?: true;
}

/**
 * Lets the commands a client writes in the rest of this tick leave in one socket write: from now
 * until the tick's synchronous code and promise callbacks have run (`process.nextTick`, queued after
 * the microtasks when called from one), the text commands ioredis writes to the client's socket are
 * joined into one string, written once at the end: one system call instead of one per command (at
 * concurrency 8 a socket write per script call was a tenth of the server's CPU). One string rather
 * than `cork()`: a corked socket's `writev` of strings allocates a buffer for every write, which
 * showed up as garbage collection.
 *
 * Order and content are unchanged: the socket receives the same bytes in the same order (anything
 * else written meanwhile — a Buffer, a write with a callback — first sends what was gathered), and
 * replies are matched as before; a socket ended or destroyed in the tick (`disconnect()`) first sends
 * what was gathered, as it would have been sent already; nothing waits beyond the current tick (unlike
 * ioredis's auto-pipelining, which holds commands until a later one). A client not connected (its
 * commands wait in ioredis's offline queue), a cluster client (no single socket) or anything but an
 * ioredis client is left as it is. Methods someone else installed on the socket meanwhile are kept
 * (ours then pass everything through).
 */
export function holdWritesForTick(redis: unknown): void {
  const client = redis as { status?: unknown; stream?: unknown };
  if (client.status !== 'ready') return;
  const stream = client.stream as HeldStream | undefined;
  if (!stream || typeof stream.write !== 'function' || stream[HELD]) return;
  stream[HELD] = true;
  let holding = true;
  let gathered = '';
  const write = stream.write;
  const flush = () => {
    if (gathered === '') return;
    const text = gathered;
    gathered = '';
    write.call(stream, text);
  };
  const replaced: Partial<
    Record<'write' | 'end' | 'destroy', { own: boolean; original: Method; ours: Method }>
  > = {};
  const replace = (name: 'write' | 'end' | 'destroy', ours: (original: Method) => Method) => {
    const original = stream[name];
    if (typeof original !== 'function') return;
    const method = ours(original);
    replaced[name] = { own: Object.hasOwn(stream, name), original, ours: method };
    stream[name] = method;
  };
  replace(
    'write',
    (original) =>
      function (this: unknown, chunk: unknown, ...rest: unknown[]) {
        if (holding && typeof chunk === 'string' && rest.length === 0) {
          gathered += chunk;
          return true;
        }
        flush();
        return original.call(stream, chunk, ...rest);
      },
  );
  for (const name of ['end', 'destroy'] as const) {
    replace(
      name,
      (original) =>
        function (this: unknown, ...args: unknown[]) {
          flush();
          return original.apply(stream, args);
        },
    );
  }
  process.nextTick(() => {
    holding = false;
    delete stream[HELD];
    for (const [name, method] of Object.entries(replaced) as [
      keyof typeof replaced,
      { own: boolean; original: Method; ours: Method },
    ][]) {
      // wrapped again meanwhile: ours stays under the new wrapper, passing everything through
      if (stream[name] !== method.ours) continue;
      if (method.own) stream[name] = method.original;
      else delete stream[name];
    }
    flush();
  });
}
