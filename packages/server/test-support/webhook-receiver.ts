import { type IncomingHttpHeaders, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One POST the receiver got. */
export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  json: any;
  /** When it arrived (Date.now()). */
  at: number;
}

export interface WebhookReceiver {
  url: string;
  received: Received[];
  /** What the next requests are answered (a status per request; the last one repeats; 0: never answered). */
  answer(statuses: number[]): void;
  close(): Promise<void>;
}

/** A real HTTP receiver on a free loopback port that records every request and answers as told. */
export async function startWebhookReceiver(statuses: number[] = [200]): Promise<WebhookReceiver> {
  let plan = [...statuses];
  const received: Received[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let json: unknown;
      try {
        json = JSON.parse(body);
      } catch {
        json = undefined;
      }
      received.push({ headers: request.headers, body, json, at: Date.now() });
      const status = plan.length > 1 ? (plan.shift() as number) : (plan[0] ?? 200);
      if (status === 0) return;
      response.writeHead(status, { 'content-type': 'text/plain' }).end(String(status));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    answer(next) {
      plan = [...next];
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
