/**
 * AG-UI adapter cost per event: encoding a run's `AgentEvent`s into AG-UI 1.0 SSE frames
 * (`createAgUiEncoder` + `formatAgUiEvent`) against what the generic SSE route does with the same
 * events of the same run (`id: <seq>\ndata: <JSON.stringify(event)>\n\n`).
 * Run: `pnpm --filter @awaken/bench exec tsx src/protocols/ag-ui-encoder.ts`
 *
 * The events come from real runs of the runtime with the scripted model (see `workloads` below).
 */
import { loadavg } from 'node:os';
import { type AgentEvent, approve } from '@awaken/contract';
import { createPermissionPlugin } from '@awaken/ext-permission';
import { createAgUiEncoder, formatAgUiEvent } from '@awaken/protocol-ag-ui';
import { createAgentRuntime } from '@awaken/runtime';
import { createMemoryStores } from '@awaken/store-memory';
import { type ScriptedTurn, createScriptedModel, echoTool } from '@awaken/testing';

async function collect(events: AsyncIterable<AgentEvent>): Promise<AgentEvent[]> {
  const out: AgentEvent[] = [];
  for await (const event of events) out.push(event);
  return out;
}

/** Every event of one run: the first activation, then a continuation per approval round. */
async function runEvents(turns: ScriptedTurn[]): Promise<AgentEvent[]> {
  const runtime = createAgentRuntime({
    agents: [
      {
        id: 'agent',
        tools: [echoTool],
        toolExecution: 'parallel',
        plugins: [createPermissionPlugin({ defaultBehavior: 'ask' })],
      },
    ],
    stores: createMemoryStores(),
    model: createScriptedModel(turns),
  });
  const handle = runtime.run({ agentId: 'agent', input: 'go' });
  const events = await collect(handle.events);
  let result = await handle.result;
  while (result.status === 'waiting') {
    const next = runtime.resumeRun(result.runId, {
      decisions: result.waiting!.tickets.map((t) => approve(t)),
    });
    events.push(...(await collect(next.events)));
    result = await next.result;
  }
  return events;
}

const sentence = 'The quick brown fox jumps over the lazy dog while the runtime streams every delta. ';
const workloads: Array<{ name: string; turns: ScriptedTurn[] }> = [
  {
    name: 'chat answer (reasoning + 600-char text, 4-char deltas)',
    turns: [{ reasoning: sentence, text: sentence.repeat(7) }],
  },
  {
    name: 'approvals (text, 2 parallel approved calls, resume, answer)',
    turns: [
      {
        text: sentence,
        toolCalls: [
          { id: 'a', name: 'echo', arguments: { text: 'first' } },
          { id: 'b', name: 'echo', arguments: { text: 'second' } },
        ],
      },
      { text: sentence.repeat(2) },
    ],
  },
];

let sink = 0;

/** Nanoseconds per call of `body`: the fastest of `rounds` timed rounds after a warm-up. */
function measure(body: () => number, { warmup = 2_000, minMs = 200, rounds = 7 } = {}): number {
  for (let index = 0; index < warmup; index++) sink += body();
  const samples: number[] = [];
  for (let round = 0; round < rounds; round++) {
    let iterations = 0;
    const start = performance.now();
    let elapsed = 0;
    do {
      for (let index = 0; index < 50; index++) sink += body();
      iterations += 50;
      elapsed = performance.now() - start;
    } while (elapsed < minMs);
    samples.push((elapsed * 1e6) / iterations);
  }
  return Math.min(...samples);
}

function genericSse(events: readonly AgentEvent[]): number {
  let bytes = 0;
  for (const event of events) bytes += `id: ${event.seq}\ndata: ${JSON.stringify(event)}\n\n`.length;
  return bytes;
}

/** The encoder alone: AG-UI events built, not serialised. */
function encodeOnly(events: readonly AgentEvent[]): number {
  const encoder = createAgUiEncoder();
  let count = 0;
  for (const event of events) count += encoder.push(event).length;
  return count + encoder.close().length;
}

function adapterSse(events: readonly AgentEvent[]): number {
  const encoder = createAgUiEncoder();
  let bytes = 0;
  for (const event of events) for (const out of encoder.push(event)) bytes += formatAgUiEvent(out).length;
  for (const out of encoder.close()) bytes += formatAgUiEvent(out).length;
  return bytes;
}

console.log(
  `node ${process.version}, ${process.platform}/${process.arch}, load average ${loadavg()
    .map((load) => load.toFixed(2))
    .join(' ')}`,
);
console.log(
  '| workload | events | JSON.stringify + SSE frame (generic route) ns/event | encoder only ns/event | encoder + SSE frames (adapter) ns/event | adapter / generic | bytes generic → adapter |',
);
console.log('|---|---:|---:|---:|---:|---:|---|');
for (const workload of workloads) {
  const events = await runEvents(workload.turns);
  const generic = measure(() => genericSse(events));
  const adapter = measure(() => adapterSse(events));
  const encoding = measure(() => encodeOnly(events));
  const perEvent = (ns: number) => (ns / events.length).toFixed(0);
  console.log(
    `| ${workload.name} | ${events.length} | ${perEvent(generic)} | ${perEvent(encoding)} | ${perEvent(adapter)} | ${(adapter / generic).toFixed(2)}x | ${genericSse(events)} → ${adapterSse(events)} |`,
  );
}
if (sink === -1) console.log('unreachable');
