/**
 * The store calls of ONE useChat turn on PostgreSQL, in order, with who made them:
 * `pnpm --filter @awaken/bench bench:chat-turn-trace-postgres`. Starts PostgreSQL and the Awaken
 * chat server over PostgreSQL stores in this process, warms up with five turns, then records one
 * turn: every read (one statement), transaction (`mutate`) and function call message the stores'
 * shared `PgDb` sent, each with the first runtime/server frame of its stack. Reading the list shows
 * which calls of a turn repeat (tooling/bench/results/postgres-issue-37-s7.md).
 */
import { randomUUID } from 'node:crypto';
import { defineTool } from '@awaken/contract';
import { createAiSdkModelExecutor } from '@awaken/provider-ai-sdk';
import { createHttpApp, createMailboxService } from '@awaken/server';
import type { ServiceStores } from '@awaken/server';
import { createPostgresStores } from '@awaken/store-postgres';
import { startPostgresServer } from '@awaken/testing';
import { serve } from '@hono/node-server';
import { z } from 'zod';
import { chatTurn } from './chat-client';
import { WEATHER, weatherModel } from './weather-model';

Error.stackTraceLimit = 60;
const postgres = await startPostgresServer();
const pg = createPostgresStores({
  postgres: { connectionString: postgres.url, max: 20 },
  schema: `trace_${randomUUID().replaceAll('-', '').slice(0, 12)}`,
});
await pg.migrate();
const lines: string[] = [];
let recording = false;

/** The first frames outside the store package and node internals: who asked. */
function caller(): string {
  const frames = (new Error().stack ?? '').split('\n').slice(3);
  const ours = frames
    .filter((frame) => /packages\/(runtime|server)\//.test(frame))
    .slice(0, 2)
    .map((frame) => frame.replace(/.*packages\//, '').replace(/\)$/, ''));
  return ours.join(' < ');
}
/**
 * A call's function; for `tr_write` and `tr_write_end` (the joint write with the run's end: its last
 * events after the checkpoint, the log finished), the types of its events and the checkpoint's status.
 */
function describeCall(call: { fn: string; args: readonly unknown[] }): string {
  if (call.fn !== 'tr_write' && call.fn !== 'tr_write_end') return call.fn;
  const events = (call.args[6] as string[] | null) ?? [];
  const types = events.map((event) => (JSON.parse(event) as { type: string }).type);
  const status = call.args[13] as string | null;
  const checkpoint = status === null ? '' : `, checkpoint: ${status}`;
  if (call.fn === 'tr_write') return `tr_write(events: [${types.join(' ')}]${checkpoint})`;
  const last = Number(call.args[20]);
  const before = types.slice(0, types.length - last).join(' ');
  const after = types.slice(types.length - last).join(' ');
  return `tr_write_end(events: [${before}]${checkpoint}, then: [${after}]${call.args[21] ? ', finish' : ''})`;
}
const db = pg.threadRuns.db;
const { read, mutate, callFunctions } = db;
db.read = function (this: typeof db, sql: string, params?: unknown[]) {
  if (recording) lines.push(`read  ${sql.replace(/\s+/g, ' ').slice(0, 70)}  ← ${caller()}`);
  return read.call(this, sql, params);
} as typeof db.read;
db.mutate = function (this: typeof db, work: never, record?: never) {
  if (recording) lines.push(`tx    ${String(work).replace(/\s+/g, ' ').slice(0, 50)}  ← ${caller()}`);
  return mutate.call(this, work, record);
} as typeof db.mutate;
db.callFunctions = function (this: typeof db, calls: never[], lockFirst?: never) {
  if (recording) lines.push(`call  ${calls.map(describeCall).join(', ')}  ← ${caller()}`);
  return callFunctions.call(this, calls, lockFirst);
} as typeof db.callFunctions;

const { threadRuns, mailbox, eventLog, inbox } = pg;
const service = createMailboxService({
  agents: [
    {
      id: 'weather',
      model: createAiSdkModelExecutor(weatherModel),
      tools: [
        defineTool({
          name: 'get_weather',
          description: 'The weather in a city',
          parameters: z.object({ city: z.string() }),
          execute: () => WEATHER,
        }),
      ],
    },
  ],
  stores: { threadRuns, mailbox, eventLog, inbox } as ServiceStores,
  concurrency: 64,
});
await service.start();
const http = createHttpApp({ tenants: { default: service } });
const server = serve({ fetch: http.fetch, port: 0, hostname: '127.0.0.1' });
await new Promise((resolve) => server.once('listening', resolve));
const address = server.address();
const base = new URL(`http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`);
const PATH = '/v1/ai-sdk/agents/weather/chat';
try {
  for (let index = 0; index < 5; index += 1) await chatTurn(base, PATH);
  await new Promise((resolve) => setTimeout(resolve, 300)); // the last turn's trailing writes
  recording = true;
  await chatTurn(base, PATH);
  await new Promise((resolve) => setTimeout(resolve, 300));
  recording = false;
  for (const line of lines) process.stdout.write(`${line}\n`);
  const count = (prefix: string) => lines.filter((line) => line.startsWith(prefix)).length;
  process.stdout.write(
    `\n${count('read')} reads, ${count('tx')} transactions, ${count('call')} function messages\n`,
  );
} finally {
  server.close();
  await service.stop({ graceMs: 0 });
  await pg.close();
  await postgres.stop();
  process.exit(0);
}
