import { type Server, type Socket, connect, createServer } from 'node:net';
import { commandWords, respEnd } from './resp';

/** A loopback TCP proxy in front of a Redis server that can lose one reply on purpose. Tests only. */
export interface ReplyDroppingProxy {
  /** `redis://127.0.0.1:<port>` of the proxy. */
  readonly url: string;
  /**
   * Arms the proxy: the reply to the next command that `match` accepts (its words, e.g.
   * `['evalsha', sha, '0', ...]`) is swallowed after Redis has executed the command, and that
   * client's connection is cut, as a network failure would. A `-NOSCRIPT` reply is let through (the
   * command did nothing). Resolves with the command's words once the reply was dropped.
   */
  dropNextReply(match: (words: string[]) => boolean): Promise<string[]>;
  /** Forgets an armed drop that did not happen. */
  disarm(): void;
  /** How many replies were dropped so far. */
  readonly dropped: number;
  close(): Promise<void>;
}

const SUBSCRIBING = new Set(['subscribe', 'psubscribe', 'ssubscribe', 'monitor']);

interface Armed {
  match(words: string[]): boolean;
  resolve(words: string[]): void;
}

/** Starts a proxy on a free loopback port forwarding to `target` (`redis://host:port`). */
export async function startReplyDroppingProxy(target: string): Promise<ReplyDroppingProxy> {
  const { hostname, port } = new URL(target);
  const sockets = new Set<Socket>();
  let armed: Armed | undefined;
  let dropped = 0;

  const server: Server = createServer((client) => {
    const upstream = connect(Number(port), hostname);
    sockets.add(client);
    sockets.add(upstream);
    const pending: string[][] = [];
    let requests: Buffer = Buffer.alloc(0);
    let replies: Buffer = Buffer.alloc(0);
    let passthrough = false;
    const cut = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('data', (chunk: Buffer) => {
      upstream.write(chunk);
      if (passthrough) return;
      requests = requests.length === 0 ? chunk : Buffer.concat([requests, chunk]);
      for (;;) {
        const end = respEnd(requests, 0);
        if (end < 0) break;
        const words = commandWords(requests, 0, end);
        requests = requests.subarray(end);
        pending.push(words);
        if (SUBSCRIBING.has((words[0] ?? '').toLowerCase())) passthrough = true;
      }
    });
    upstream.on('data', (chunk: Buffer) => {
      if (passthrough) {
        client.write(chunk);
        return;
      }
      replies = replies.length === 0 ? chunk : Buffer.concat([replies, chunk]);
      for (;;) {
        const end = respEnd(replies, 0);
        if (end < 0) break;
        const reply = replies.subarray(0, end);
        replies = replies.subarray(end);
        const words = pending.shift() ?? [];
        const target = armed;
        if (target?.match(words) && !reply.toString('latin1', 0, 9).startsWith('-NOSCRIPT')) {
          armed = undefined;
          dropped += 1;
          cut();
          target.resolve(words);
          return;
        }
        client.write(reply);
      }
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
  if (address === null || typeof address === 'string') throw new Error('proxy has no port');

  return {
    url: `redis://127.0.0.1:${address.port}`,
    dropNextReply(match) {
      if (armed !== undefined) throw new Error('the proxy is already armed');
      return new Promise((resolve) => {
        armed = { match, resolve };
      });
    },
    disarm() {
      armed = undefined;
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
