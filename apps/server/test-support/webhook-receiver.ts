import { type IncomingHttpHeaders, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { verifyWebhook } from '@awaken/server';

/** One POST the receiver got, and whether its signature held. */
export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  json: any;
  verified: boolean;
}

export interface WebhookReceiver {
  url: string;
  received: Received[];
  /** Delivery ids processed once each (a receiver dedupes by `Awaken-Delivery-Id`). */
  processed: Map<string, Received>;
  /** Statuses of the next requests (the last one repeats); 0 holds the request unanswered. */
  answer(statuses: number[]): void;
  close(): Promise<void>;
}

/**
 * A webhook receiver as the notifications guide writes one, on a free loopback port: checks the
 * signature with `secret` (401 when it fails), processes each delivery id once (a repeat is
 * answered 200 and ignored), and answers as told.
 */
export async function startWebhookReceiver(
  secret: string,
  statuses: number[] = [200],
): Promise<WebhookReceiver> {
  let plan = [...statuses];
  const received: Received[] = [];
  const processed = new Map<string, Received>();
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const header = request.headers['awaken-signature'];
      const verified = verifyWebhook({
        secret,
        body,
        header: typeof header === 'string' ? header : undefined,
      });
      const entry: Received = { headers: request.headers, body, json: JSON.parse(body), verified };
      received.push(entry);
      if (!verified) return void response.writeHead(401).end();
      const status = plan.length > 1 ? (plan.shift() as number) : (plan[0] ?? 200);
      if (status === 0) return;
      const id = String(request.headers['awaken-delivery-id']);
      if (status < 300 && !processed.has(id)) processed.set(id, entry);
      response.writeHead(status).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    processed,
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
