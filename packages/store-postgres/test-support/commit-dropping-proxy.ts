import { type Server, type Socket, createServer, connect } from 'node:net';

/** The server's CommandComplete message for COMMIT: 'C', length 11, "COMMIT\0". */
const COMMIT_COMPLETE = Buffer.from([0x43, 0, 0, 0, 11, ...Buffer.from('COMMIT'), 0]);

/** A RowDescription naming the column `reply` (a store function's answer). */
const REPLY_COLUMN = Buffer.from('reply\0');
/** ReadyForQuery, idle: the server sends it after the implicit transaction of a Sync committed. */
const READY_IDLE = Buffer.from([0x5a, 0, 0, 0, 5, 0x49]);

/**
 * The reply of a function call sent alone (a prepared statement, its own transaction): the column
 * `reply` described and the ReadyForQuery after its commit, in one chunk (the server flushes them together).
 */
function isFunctionReply(chunk: Buffer): boolean {
  const described = chunk.indexOf(REPLY_COLUMN);
  return described > 0 && chunk.includes(READY_IDLE, described);
}

/** A TCP proxy in front of PostgreSQL that can lose the reply of a COMMIT, as a dropped connection does. */
export interface CommitDroppingProxy {
  /** A connection string through the proxy (same user and database as the target). */
  url: string;
  /** The next COMMIT reply, or function call reply (the transaction committed), is dropped and its connection cut. */
  dropNextCommitReply(): void;
  /** How many COMMIT replies were dropped so far. */
  readonly dropped: number;
  close(): Promise<void>;
}

/**
 * Starts the proxy on a free loopback port. When armed, it scans what the server sends for the
 * CommandComplete of a COMMIT, or the reply of a function call sent alone (committed with its
 * Sync), and instead of forwarding it destroys both sockets: the server has
 * committed, the client sees "Connection terminated" — the lost reply after commit.
 */
export async function startCommitDroppingProxy(target: string): Promise<CommitDroppingProxy> {
  const targetUrl = new URL(target);
  let armed = false;
  let dropped = 0;
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const upstream = connect(Number(targetUrl.port), targetUrl.hostname);
    sockets.add(client);
    sockets.add(upstream);
    const cut = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('data', (chunk) => upstream.write(chunk));
    upstream.on('data', (chunk: Buffer) => {
      if (armed && (chunk.includes(COMMIT_COMPLETE) || isFunctionReply(chunk))) {
        armed = false;
        dropped += 1;
        cut();
        return;
      }
      client.write(chunk);
    });
    for (const socket of [client, upstream]) {
      socket.on('error', cut);
      socket.on('close', () => {
        sockets.delete(socket);
        cut();
      });
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  const url = new URL(target);
  url.port = String(port);
  return {
    url: url.toString(),
    dropNextCommitReply() {
      armed = true;
    },
    get dropped() {
      return dropped;
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
