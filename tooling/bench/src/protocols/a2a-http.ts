/**
 * A2A adapter end to end: events per second of one streamed run read over HTTP from the A2A
 * JSON-RPC route (`POST /v1/a2a/agents/stream`, `SendStreamingMessage`: the Task, then status and
 * artifact updates, each a JSON-RPC response frame) against the generic SSE route (`POST /v1/runs`,
 * one `AgentEvent` per frame), interleaved in the same benchmark run against the same server process.
 * Both rates count the run's `AgentEvent`s (the same run, so the same number), whatever each route
 * turns them into.
 * Run: `pnpm --filter @awaken/bench exec tsx src/protocols/a2a-http.ts`
 */
import { randomUUID } from 'node:crypto';
import { loadavg } from 'node:os';
import { median, percentile } from '../internal/stats';
import { startChildServer } from '../server-http/child-server';
import { drainSse } from '../server-http/sse-client';

const EVENTS = Number(process.env.BENCH_EVENTS ?? 2000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
const json = { 'content-type': 'application/json' };

async function seconds(run: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await run();
  return (performance.now() - start) / 1000;
}

const server = await startChildServer(['awaken']);
try {
  const generic = () =>
    fetch(`${server.url}/v1/runs`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ agentId: 'stream', input: `stream:${EVENTS}` }),
    });
  const adapter = () =>
    fetch(`${server.url}/v1/a2a/agents/stream`, {
      method: 'POST',
      headers: { ...json, accept: 'text/event-stream', 'a2a-version': '1.0' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'SendStreamingMessage',
        params: {
          message: { messageId: randomUUID(), role: 'ROLE_USER', parts: [{ text: `stream:${EVENTS}` }] },
        },
      }),
    });
  const runEvents = (await drainSse(await generic())).events;
  const frames = (await drainSse(await adapter())).text
    .split('\n\n')
    .filter((frame) => frame.startsWith('data: '));
  const last = JSON.parse(frames.at(-1)?.slice(6) ?? '{}');
  if (last.result?.statusUpdate?.status?.state !== 'TASK_STATE_COMPLETED')
    throw new Error(`the A2A stream did not end completed: ${frames.at(-1)}`);
  const rates = { generic: [] as number[], adapter: [] as number[] };
  for (let round = 0; round < ROUNDS + 2; round += 1) {
    const order = round % 2 === 0 ? (['generic', 'adapter'] as const) : (['adapter', 'generic'] as const);
    for (const name of order) {
      const elapsed = await seconds(async () => drainSse(await (name === 'generic' ? generic() : adapter())));
      if (round >= 2) rates[name].push(runEvents / elapsed);
    }
  }
  console.log(
    `node ${process.version}, ${process.platform}/${process.arch}, load average ${loadavg()
      .map((load) => load.toFixed(2))
      .join(' ')}`,
  );
  console.log(
    `one run of ${runEvents} AgentEvents (${EVENTS} text deltas); the A2A stream carries ${frames.length} data frames`,
  );
  console.log('| route | run events/s, median | p10 | p90 |');
  console.log('|---|---:|---:|---:|');
  for (const [label, samples] of [
    ['generic SSE, POST /v1/runs', rates.generic],
    ['A2A SendStreamingMessage, POST /v1/a2a/agents/stream', rates.adapter],
  ] as const) {
    const fmt = (value: number) => Math.round(value).toLocaleString('en-US');
    console.log(
      `| ${label} | ${fmt(median(samples))} | ${fmt(percentile(samples, 0.1))} | ${fmt(percentile(samples, 0.9))} |`,
    );
  }
  const perRound = rates.adapter.map((rate, index) => rate / (rates.generic[index] ?? rate));
  console.log(
    `adapter / generic: ${(median(rates.adapter) / median(rates.generic)).toFixed(2)}x (ratio of medians); per round ${Math.min(...perRound).toFixed(2)}-${Math.max(...perRound).toFixed(2)}x`,
  );
} finally {
  await server.stop();
}
