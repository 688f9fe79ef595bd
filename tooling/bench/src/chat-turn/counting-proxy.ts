import { type AddressInfo, type Server, type Socket, createConnection, createServer } from 'node:net';

/**
 * A TCP proxy in front of Redis that counts what clients send: each chunk a client writes is one
 * round trip (ioredis writes a pipeline or an auto-pipelined batch as one chunk; a lone command is
 * a chunk of its own). Used at concurrency 1, where chunks of different requests do not merge.
 */
export interface CountingProxy {
  url: string;
  /** Chunks written by clients so far (all connections). */
  readonly writes: number;
  /** Connections opened so far. */
  readonly connections: number;
  close(): Promise<void>;
}

export async function startCountingProxy(target: { host: string; port: number }): Promise<CountingProxy> {
  let writes = 0;
  let connections = 0;
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    connections += 1;
    const upstream = createConnection(target);
    client.setNoDelay(true);
    upstream.setNoDelay(true);
    sockets.add(client).add(upstream);
    client.on('data', (chunk) => {
      writes += 1;
      upstream.write(chunk);
    });
    upstream.on('data', (chunk) => client.write(chunk));
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
  return {
    url: `redis://127.0.0.1:${port}`,
    get writes() {
      return writes;
    },
    get connections() {
      return connections;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
