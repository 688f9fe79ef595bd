/**
 * A run with one sub-agent against the same work done by one agent, on Redis stores (thread/run
 * store, event log, control inbox), same scripted model turns for the work:
 * - `one agent`: the agent lists the files, deletes one, answers (3 model turns, 2 tools);
 * - `with a sub-agent`: a lead delegates the task to `agentTool('worker')` and answers with what it
 *   returns (2 more model turns); the worker does exactly the one agent's 3 turns in its child run.
 * Measures time per run (interleaved rounds, median and p90) and store round trips per run (every
 * call of a store method; each is one request to Redis) plus Redis commands per run (INFO
 * commandstats, script-internal commands included), and writes results/subagent-overhead.md.
 *
 *   pnpm --filter @awaken/bench exec tsx src/subagent-overhead.ts
 *
 * Environment: BENCH_ROUNDS (default 60), BENCH_WARMUP (default 10), BENCH_WRITE=0 to skip writing.
 */
import { writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { type InferenceRequest, defineTool } from '@awaken/contract';
import { type AgentDefinition, agentTool, createAgentRuntime } from '@awaken/runtime';
import { createRedisStores } from '@awaken/store-redis';
import { createScriptedModel, startRedisServer } from '@awaken/testing';
import { Redis } from 'ioredis';
import { z } from 'zod';
import { commandTotals } from './internal/redis-info';
import { type Contender, measureInterleaved, median, p90 } from './internal/stats';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 60);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 10);

const listFiles = defineTool({
  name: 'list_files',
  description: 'lists files',
  parameters: z.object({}),
  execute: () => ({ files: ['/tmp/report.txt'] }),
});
const deleteFile = defineTool({
  name: 'delete_file',
  description: 'deletes a file',
  parameters: z.object({ path: z.string() }),
  execute: ({ path }) => ({ deleted: path }),
});

/** The work: list, delete, answer — decided by how many tool results the history holds. */
function workerModel() {
  return createScriptedModel((request: InferenceRequest) => {
    const results = request.messages.filter((message) => message.role === 'tool').length;
    if (results === 0) return { toolCalls: [{ id: 'list', name: 'list_files', arguments: {} }] };
    if (results === 1)
      return { toolCalls: [{ id: 'del', name: 'delete_file', arguments: { path: '/tmp/report.txt' } }] };
    return { text: 'I deleted /tmp/report.txt.' };
  });
}

function leadModel() {
  return createScriptedModel((request: InferenceRequest) => {
    const last = request.messages.at(-1);
    if (last?.role === 'tool') return { text: `The worker says: ${String(last.content)}` };
    return { toolCalls: [{ id: 'delegate', name: 'worker', arguments: { task: 'delete /tmp/report.txt' } }] };
  });
}

/** Counts every method call on a store: one request to Redis each. */
function counted<T extends object>(store: T, counter: { calls: number }): T {
  return new Proxy(store, {
    get(target, key, receiver) {
      const value = Reflect.get(target, key, receiver);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        counter.calls += 1;
        return value.apply(target, args);
      };
    },
  });
}

async function main(): Promise<void> {
  const server = await startRedisServer();
  const admin = new Redis(server.url);
  const stores = createRedisStores({ redis: server.url, prefix: 'bench-subagent:' });
  const counter = { calls: 0 };
  const runtimeStores = {
    threadRuns: counted(stores.threadRuns, counter),
    eventLog: counted(stores.eventLog, counter),
    inbox: counted(stores.inbox, counter),
  };
  const agents: AgentDefinition[] = [
    { id: 'solo', model: workerModel(), tools: [listFiles, deleteFile] },
    { id: 'lead', model: leadModel(), tools: [agentTool('worker')] },
    { id: 'worker', model: workerModel(), tools: [listFiles, deleteFile] },
  ];
  const runtime = createAgentRuntime({ agents, stores: runtimeStores });
  const perRun = new Map<string, { trips: number[]; commands: number[] }>();
  const contender = (name: string, agentId: string): Contender<null> => ({
    name,
    async run() {
      const trips = counter.calls;
      const before = await commandTotals(admin);
      const result = await runtime.runToCompletion({ agentId, input: 'delete /tmp/report.txt' });
      if (result.status !== 'done' || !result.response?.includes('deleted'))
        throw new Error(`${name} ended ${JSON.stringify(result)}`);
      const after = await commandTotals(admin);
      const entry = perRun.get(name) ?? { trips: [], commands: [] };
      entry.trips.push(counter.calls - trips);
      entry.commands.push(after.calls + after.inner - before.calls - before.inner);
      perRun.set(name, entry);
    },
  });
  try {
    const contenders = [contender('one agent', 'solo'), contender('with a sub-agent', 'lead')];
    const samples = await measureInterleaved(contenders, null, { warmup: WARMUP, rounds: ROUNDS });
    const row = (name: string) => {
      const ms = samples.get(name) ?? [];
      const counts = perRun.get(name)!;
      return {
        p50: median(ms),
        p90: p90(ms),
        trips: median(counts.trips),
        commands: median(counts.commands),
      };
    };
    const solo = row('one agent');
    const sub = row('with a sub-agent');
    const lines = [
      '# A run with one sub-agent against the same work done by one agent (Redis)',
      '',
      `${ROUNDS} measured rounds after ${WARMUP} warm-up, interleaved; one process; redis-server on loopback (no persistence); ${cpus().length} cores, load ${loadavg()[0]?.toFixed(2)} at the end. The work: 3 scripted model turns and 2 tools; the sub-agent variant adds the lead's 2 turns (delegate, answer) and runs the work in a child run (its own record, thread, lease, checkpoints and event log).`,
      '',
      '| | one agent | with a sub-agent | ratio |',
      '|---|---|---|---|',
      `| time per run, median (ms) | ${solo.p50.toFixed(2)} | ${sub.p50.toFixed(2)} | ${(sub.p50 / solo.p50).toFixed(2)}× |`,
      `| time per run, p90 (ms) | ${solo.p90.toFixed(2)} | ${sub.p90.toFixed(2)} | ${(sub.p90 / solo.p90).toFixed(2)}× |`,
      `| store round trips per run | ${solo.trips} | ${sub.trips} | ${(sub.trips / solo.trips).toFixed(2)}× |`,
      `| Redis commands per run (script-internal included) | ${solo.commands} | ${sub.commands} | ${(sub.commands / solo.commands).toFixed(2)}× |`,
      '',
      'Run: `pnpm --filter @awaken/bench exec tsx src/subagent-overhead.ts`.',
      '',
    ];
    process.stdout.write(lines.join('\n'));
    if (process.env.BENCH_WRITE !== '0')
      writeFileSync(new URL('../results/subagent-overhead.md', import.meta.url), lines.join('\n'));
  } finally {
    await stores.close();
    admin.disconnect();
    await server.stop();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${String(error instanceof Error ? error.stack : error)}\n`);
  process.exit(1);
});
