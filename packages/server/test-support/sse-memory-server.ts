/**
 * The server process of the SSE backpressure test, started with `--import tsx --expose-gc`. argv[2]
 * is JSON `{ events, eventBytes }`. It runs the HTTP API on memory stores over a real node http
 * server on loopback, builds one waiting run whose log then grows by `events` events of about
 * `eventBytes` each (appended straight through the store), reports `{ type: 'ready', port, runId,
 * afterSeq }`, and answers `memory` with its memory usage after a full GC.
 */
import type { AddressInfo } from 'node:net';
import type { AgentEvent } from '@awaken/contract';
import { serve } from '@hono/node-server';
import { createMailboxService } from '../src/create-mailbox-service';
import { createHttpApp } from '../src/http/create-http-app';
import { memoryCounters } from './counters';
import { AGENT_ID, scenarioAgent } from './scenario-agent';

interface Job {
  events: number;
  eventBytes: number;
}

async function main(job: Job): Promise<void> {
  const service = createMailboxService({ agents: [scenarioAgent(memoryCounters())], concurrency: 1 });
  await service.start();
  const run = await service.submit({ agentId: AGENT_ID, input: 'approve:1' });
  await run.settled();
  const { eventLog } = service.stores;
  // The log's fence is raised past the waiting run's, so this process may append to it.
  const afterSeq = await eventLog.raiseFence(run.runId, 1_000_000);
  const delta = 'x'.repeat(job.eventBytes);
  for (let seq = afterSeq + 1; seq <= afterSeq + job.events; seq += 1_000) {
    const batch: AgentEvent[] = [];
    for (let next = seq; next < seq + 1_000 && next <= afterSeq + job.events; next += 1) {
      batch.push({ type: 'text_delta', runId: run.runId, seq: next, at: Date.now(), messageId: 'm', delta });
    }
    await eventLog.append(run.runId, batch, { fence: 1_000_000 });
  }
  const { fetch } = createHttpApp({ tenants: { default: service } });
  const server = serve({ fetch, hostname: '127.0.0.1', port: 0 });
  if (!server.listening) await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  const { port } = server.address() as AddressInfo;
  process.on('message', (message: { type?: string }) => {
    if (message.type !== 'memory') return;
    globalThis.gc?.();
    globalThis.gc?.();
    process.send?.({ type: 'memory', usage: process.memoryUsage() });
  });
  process.send?.({ type: 'ready', port, runId: run.runId, afterSeq });
}

main(JSON.parse(process.argv[2] ?? '{}') as Job).catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
