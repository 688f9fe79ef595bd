/**
 * The server process of the inbox load test, started with `--import tsx`. argv[2] is JSON
 * `{ runs, argumentChars }`. It runs the HTTP API on memory stores over a real node http server on
 * loopback, makes `runs` runs wait on one approval each — a `delete_file` call whose `path` is
 * `argumentChars` characters long, run by the service like any other — then reports
 * `{ type: 'ready', port, pid }`. Asked `{ type: 'more', runs }`, it makes that many more runs wait
 * (the inbox changes under its readers) and answers `{ type: 'more-done' }`. Its memory is measured
 * from outside (`/proc/<pid>/status`), so nothing here forces a GC.
 */
import type { AddressInfo } from 'node:net';
import { type Plugin, defineTool } from '@awaken/contract';
import type { AgentDefinition } from '@awaken/runtime';
import { createScriptedModel } from '@awaken/testing';
import { serve } from '@hono/node-server';
import { z } from 'zod';
import { createMailboxService } from '../src/create-mailbox-service';
import { createHttpApp } from '../src/http/create-http-app';
import type { MailboxService } from '../src/types';

interface Job {
  runs: number;
  argumentChars: number;
}

const AGENT_ID = 'ops';

function agentOf(argumentChars: number): AgentDefinition {
  const deleteFile = defineTool({
    name: 'delete_file',
    description: 'deletes a file',
    parameters: z.object({ path: z.string() }),
    execute: ({ path }) => ({ deleted: path }),
  });
  const approval: Plugin = {
    id: 'approval',
    hooks: {
      toolGate: (context) =>
        context.resume
          ? undefined
          : {
              type: 'suspend',
              suspension: { id: `ok_${context.call.id}`, action: 'approve', message: 'Delete?' },
            },
    },
  };
  const model = createScriptedModel((request) => {
    const last = request.messages.at(-1);
    if (last?.role !== 'user') return { text: 'deleted' };
    const path = `/srv/${last.content}/`.padEnd(argumentChars, 'x');
    return { toolCalls: [{ id: 'call_1', name: 'delete_file', arguments: { path } }] };
  });
  return { id: AGENT_ID, model, tools: [deleteFile], plugins: [approval] };
}

let made = 0;

/** Submits `count` runs, a few at a time, and waits until each waits on its approval. */
async function makeWaiting(service: MailboxService, count: number): Promise<void> {
  const batch = 50;
  for (let start = 0; start < count; start += batch) {
    const runs = await Promise.all(
      Array.from({ length: Math.min(batch, count - start) }, () => {
        made += 1;
        return service.submit({ agentId: AGENT_ID, input: `file-${made}` });
      }),
    );
    const settled = await Promise.all(runs.map((run) => run.settled()));
    const notWaiting = settled.find((record) => record.status !== 'waiting');
    if (notWaiting) throw new Error(`run ${notWaiting.runId} is ${notWaiting.status}, not waiting`);
  }
}

async function main(job: Job): Promise<void> {
  const service = createMailboxService({ agents: [agentOf(job.argumentChars)], concurrency: 8 });
  await service.start();
  await makeWaiting(service, job.runs);
  const { fetch } = createHttpApp({ tenants: { default: service }, keepAliveMs: 1_000 });
  const server = serve({ fetch, hostname: '127.0.0.1', port: 0 });
  if (!server.listening) await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  const { port } = server.address() as AddressInfo;
  process.on('message', (message: { type?: string; runs?: number }) => {
    if (message.type !== 'more') return;
    void makeWaiting(service, message.runs ?? 0).then(
      () => process.send?.({ type: 'more-done' }),
      (error: unknown) => {
        console.error(error);
        process.exit(1);
      },
    );
  });
  process.send?.({ type: 'ready', port, pid: process.pid });
}

main(JSON.parse(process.argv[2] ?? '{}') as Job).catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
