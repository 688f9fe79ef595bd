/**
 * One benchmark server in its own process, on a free loopback port; prints `{"port":N}` when ready.
 * argv[2]: `awaken` (the HTTP API over a memory mailbox service), `bare-hono` (one Hono handler for
 * POST /v1/threads), or `plain-sse` (node:http sending the SSE frames in the file argv[3]).
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHttpApp, createMailboxService } from '@awaken/server';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { benchAgent } from '../server-service/agent';
import { streamModel } from './stream-model';

function ready(port: number): void {
  process.stdout.write(`${JSON.stringify({ port })}\n`);
}

async function awaken(): Promise<void> {
  const service = createMailboxService({
    agents: [benchAgent(), { id: 'stream', model: streamModel }],
    concurrency: 4,
  });
  await service.start();
  const http = createHttpApp({
    tenants: { default: service },
    keepAliveMs: 15_000,
    a2a: { agents: [{ id: 'stream' }], defaultAgentId: 'stream' },
  });
  const server = serve({ fetch: http.fetch, port: 0, hostname: '127.0.0.1' }, (info) => ready(info.port));
  process.on('SIGINT', () => process.exit(0));
  process.on('SIGTERM', () => {
    server.close();
    void service.stop({ graceMs: 0 }).then(() => process.exit(0));
  });
}

function bareHono(): void {
  const app = new Hono();
  app.post('/v1/threads', async (c) => {
    const body = await c.req.json().catch(() => ({}));
    return c.json(
      { id: randomUUID(), metadata: body.metadata ?? {}, createdAt: Date.now(), updatedAt: Date.now() },
      201,
    );
  });
  serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info) => ready(info.port));
}

function plainSse(file: string): void {
  const frames = readFileSync(file, 'utf8')
    .split('\n\n')
    .filter(Boolean)
    .map((frame) => `${frame}\n\n`);
  const server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    for (const frame of frames) response.write(frame);
    response.end();
  });
  server.listen(0, '127.0.0.1', () => ready((server.address() as AddressInfo).port));
}

const mode = process.argv[2];
if (mode === 'awaken') await awaken();
else if (mode === 'bare-hono') bareHono();
else if (mode === 'plain-sse') plainSse(process.argv[3] ?? '');
else throw new Error(`unknown mode ${mode}`);
