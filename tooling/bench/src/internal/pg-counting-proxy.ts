import { type AddressInfo, type Server, type Socket, createConnection, createServer } from 'node:net';

/**
 * A TCP proxy in front of PostgreSQL that counts, from the server's replies, what each client costs:
 * round trips (one `ReadyForQuery` per client request: a simple query, however many statements it
 * holds, or one extended-protocol Sync), statements (`CommandComplete`) and committed transactions
 * (`CommandComplete` of a COMMIT). Messages are parsed across chunk boundaries per connection.
 */
export interface PgCountingProxy {
  /** A connection string through the proxy (same user, password and database as the target). */
  url: string;
  readonly counts: PgCounts;
  close(): Promise<void>;
}

export interface PgCounts {
  roundTrips: number;
  statements: number;
  commits: number;
}

export async function startPgCountingProxy(target: string): Promise<PgCountingProxy> {
  const targetUrl = new URL(target);
  const counts: PgCounts = { roundTrips: 0, statements: 0, commits: 0 };
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const upstream = createConnection(Number(targetUrl.port), targetUrl.hostname);
    client.setNoDelay(true);
    upstream.setNoDelay(true);
    sockets.add(client).add(upstream);
    let pending: Buffer = Buffer.alloc(0);
    let started = false; // the startup reply has no type byte issue, but the SSL answer does: skip until 'R'
    client.on('data', (chunk) => upstream.write(chunk));
    upstream.on('data', (chunk: Buffer) => {
      client.write(chunk);
      pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
      let at = 0;
      while (pending.length - at >= 5) {
        const type = pending[at] as number;
        if (!started) {
          if (type !== 0x52) {
            at += 1; // an 'N'/'S' SSL answer byte
            continue;
          }
          started = true;
        }
        const length = pending.readInt32BE(at + 1);
        if (pending.length - at < 1 + length) break;
        if (type === 0x5a)
          counts.roundTrips += 1; // 'Z' ReadyForQuery
        else if (type === 0x43) {
          counts.statements += 1; // 'C' CommandComplete
          if (pending.toString('latin1', at + 5, at + 11) === 'COMMIT') counts.commits += 1;
        }
        at += 1 + length;
      }
      pending = pending.subarray(at);
    });
    const end = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('close', end).on('error', end);
    upstream.on('close', end).on('error', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const url = new URL(target);
  url.hostname = '127.0.0.1';
  url.port = String(port);
  return {
    url: url.toString(),
    counts,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
