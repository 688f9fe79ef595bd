/**
 * A run with one sub-agent against the same work done by one agent, on Redis stores (thread/run
 * store, event log, control inbox), interleaved in one process:
 * - `with a sub-agent`: a lead delegates the task to `agentTool('worker')` (turn 1) and answers with
 *   what it returns (turn 2); the worker lists the files, deletes one and answers (3 turns, 2 tools)
 *   in its child run: 5 model turns, 3 tool calls;
 * - `one agent, same turns` (the fair baseline): one agent makes the lead's two turns with the work
 *   between them — turn 1 calls a trivial local tool (`begin`, same arguments) where the lead calls
 *   the worker, then lists, deletes and gives the lead's final answer: 4 model turns, 3 tool calls.
 *   The one turn it lacks is the child's own answer, which only delegating needs;
 * - `one agent, work only` (the first version's baseline): the worker's 3 turns alone.
 * Measures time per run (median and p90) and the mean store round trips per run (every call of a
 * store method is one request to Redis: see `countTrips`) plus Redis commands per run (INFO
 * commandstats, script-internal commands included), and writes results/subagent-overhead.md with
 * both ratios and the round trips per store method.
 *
 *   pnpm --filter @awaken/bench exec tsx src/subagent-overhead.ts
 *
 * Environment: BENCH_ROUNDS (default 300), BENCH_WARMUP (default 30), BENCH_WRITE=0 to skip writing.
 */
import { writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { type InferenceRequest, defineTool, trustedViewOf } from '@awaken/contract';
import { type AgentDefinition, agentTool, createAgentRuntime } from '@awaken/runtime';
import { createRedisStores } from '@awaken/store-redis';
import { createScriptedModel, startRedisServer } from '@awaken/testing';
import { Redis } from 'ioredis';
import { z } from 'zod';
import { commandTotals } from './internal/redis-info';
import { type Contender, measureInterleaved, median, p90 } from './internal/stats';

const mean = (values: readonly number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
import { countTrips, createTripCounter } from './internal/store-trips';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 300);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 30);
const TASK = 'delete /tmp/report.txt';
const ANSWER = 'I deleted /tmp/report.txt.';

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
/** The fair baseline's stand-in for the delegate call: same arguments, nothing to do. */
const begin = defineTool({
  name: 'begin',
  description: 'starts a task',
  parameters: z.object({ task: z.string() }),
  execute: ({ task }) => ({ accepted: task }),
});

const toolResults = (request: InferenceRequest) =>
  request.messages.filter((message) => message.role === 'tool').length;
const listCall = { toolCalls: [{ id: 'list', name: 'list_files', arguments: {} }] };
const deleteCall = {
  toolCalls: [{ id: 'del', name: 'delete_file', arguments: { path: '/tmp/report.txt' } }],
};
const finalAnswer = { text: `The worker says: ${ANSWER}` };

/** The work: list, delete, answer — decided by how many tool results the history holds. */
function workerModel() {
  return createScriptedModel(
    (request: InferenceRequest) => [listCall, deleteCall][toolResults(request)] ?? { text: ANSWER },
  );
}

function leadModel() {
  return createScriptedModel((request: InferenceRequest) =>
    request.messages.at(-1)?.role === 'tool'
      ? finalAnswer
      : { toolCalls: [{ id: 'delegate', name: 'worker', arguments: { task: TASK } }] },
  );
}

/** The lead's two turns around the work, one agent: begin, list, delete, the lead's answer. */
function sameTurnsModel() {
  const beginCall = { toolCalls: [{ id: 'delegate', name: 'begin', arguments: { task: TASK } }] };
  return createScriptedModel(
    (request: InferenceRequest) => [beginCall, listCall, deleteCall][toolResults(request)] ?? finalAnswer,
  );
}

interface Row {
  p50: number;
  p90: number;
  trips: number;
  commands: number;
  byMethod: Map<string, number>;
}

async function main(): Promise<void> {
  const server = await startRedisServer();
  const admin = new Redis(server.url);
  const stores = createRedisStores({ redis: server.url, prefix: 'bench-subagent:' });
  const counter = createTripCounter();
  const runtimeStores = {
    threadRuns: countTrips(trustedViewOf(stores.threadRuns), counter),
    eventLog: countTrips(trustedViewOf(stores.eventLog), counter),
    inbox: countTrips(trustedViewOf(stores.inbox), counter),
  };
  const agents: AgentDefinition[] = [
    { id: 'work', model: workerModel(), tools: [listFiles, deleteFile] },
    { id: 'same', model: sameTurnsModel(), tools: [begin, listFiles, deleteFile] },
    { id: 'lead', model: leadModel(), tools: [agentTool('worker')] },
    { id: 'worker', model: workerModel(), tools: [listFiles, deleteFile] },
  ];
  const runtime = createAgentRuntime({ agents, stores: runtimeStores });
  const perRun = new Map<string, { trips: number[]; commands: number[]; byMethod: Map<string, number[]> }>();
  const contender = (name: string, agentId: string): Contender<null> => ({
    name,
    async run() {
      const trips = new Map(counter.byMethod);
      const before = await commandTotals(admin);
      const result = await runtime.runToCompletion({ agentId, input: TASK });
      if (result.status !== 'done' || !result.response?.includes('deleted'))
        throw new Error(`${name} ended ${JSON.stringify(result)}`);
      const after = await commandTotals(admin);
      const entry = perRun.get(name) ?? {
        trips: [] as number[],
        commands: [] as number[],
        byMethod: new Map<string, number[]>(),
      };
      let total = 0;
      for (const [method, count] of counter.byMethod) {
        const made = count - (trips.get(method) ?? 0);
        total += made;
        entry.byMethod.set(method, [...(entry.byMethod.get(method) ?? []), made]);
      }
      entry.trips.push(total);
      entry.commands.push(after.calls + after.inner - before.calls - before.inner);
      perRun.set(name, entry);
    },
  });
  try {
    const names = { same: 'one agent, same turns', work: 'one agent, work only', sub: 'with a sub-agent' };
    const contenders = [
      contender(names.same, 'same'),
      contender(names.work, 'work'),
      contender(names.sub, 'lead'),
    ];
    const samples = await measureInterleaved(contenders, null, { warmup: WARMUP, rounds: ROUNDS });
    const row = (name: string): Row => {
      const ms = samples.get(name) ?? [];
      const counts = perRun.get(name)!;
      const byMethod = new Map([...counts.byMethod].map(([method, made]) => [method, mean(made)]));
      return {
        p50: median(ms),
        p90: p90(ms),
        trips: mean(counts.trips),
        commands: mean(counts.commands),
        byMethod,
      };
    };
    const same = row(names.same);
    const work = row(names.work);
    const sub = row(names.sub);
    const ratio = (of: number, to: number) => `${(of / to).toFixed(2)}×`;
    const line = (label: string, pick: (row: Row) => number, digits = 0) =>
      `| ${label} | ${pick(same).toFixed(digits)} | ${pick(work).toFixed(digits)} | ${pick(sub).toFixed(digits)} | ${ratio(pick(sub), pick(same))} | ${ratio(pick(sub), pick(work))} |`;
    const fixed = (value: number | undefined) => (value ?? 0).toFixed(1).replace(/\.0$/, '');
    // each measured round ran every contender once, in rotated order: the ratio within a round
    // is taken under the same load, so its median is steadier than the ratio of the medians
    const paired = (of: string, to: string) => {
      const tos = samples.get(to) ?? [];
      return median((samples.get(of) ?? []).map((ms, round) => ms / (tos[round] ?? Number.NaN)));
    };
    const methods = [...new Set([...same.byMethod.keys(), ...sub.byMethod.keys()])].sort();
    const lines = [
      '# A run with one sub-agent against the same work done by one agent (Redis)',
      '',
      `${ROUNDS} measured rounds after ${WARMUP} warm-up, the three contenders interleaved (order rotated each round); one process; redis-server on loopback (no persistence); ${cpus().length} cores, load ${loadavg()[0]?.toFixed(2)} at the end.`,
      '',
      "- **with a sub-agent**: a lead delegates to `agentTool('worker')` and answers with what it returns; the worker lists the files, deletes one and answers in its child run (its own record, thread, lease, checkpoints and event log): 5 model turns, 3 tool calls.",
      "- **one agent, same turns** (fair baseline): one agent makes the lead's two turns with the work between them — a trivial local tool `begin` (same arguments) where the lead calls the worker, then list, delete, and the lead's final answer: 4 model turns, 3 tool calls. The turn it lacks is the child's own answer, which only delegating needs.",
      "- **one agent, work only** (the first version's baseline): the worker's 3 turns and 2 tools alone.",
      '',
      '| | one agent, same turns | one agent, work only | with a sub-agent | ratio (fair) | ratio (work only) |',
      '|---|---|---|---|---|---|',
      line('time per run, median (ms)', (entry) => entry.p50, 2),
      line('time per run, p90 (ms)', (entry) => entry.p90, 2),
      `| time, median of the per-round ratios | | | | ${paired(names.sub, names.same).toFixed(2)}× | ${paired(names.sub, names.work).toFixed(2)}× |`,
      line('store round trips per run (mean)', (entry) => entry.trips, 1),
      line('Redis commands per run, script-internal included (mean)', (entry) => entry.commands, 1),
      '',
      'Store round trips per run by method (mean; `joint.*` is the checkpoint written with its events in one script; the appends of posted events vary with timing: they group-commit):',
      '',
      '| method | one agent, same turns | one agent, work only | with a sub-agent |',
      '|---|---|---|---|',
      ...methods.map(
        (method) =>
          `| ${method} | ${fixed(same.byMethod.get(method))} | ${fixed(work.byMethod.get(method))} | ${fixed(sub.byMethod.get(method))} |`,
      ),
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
