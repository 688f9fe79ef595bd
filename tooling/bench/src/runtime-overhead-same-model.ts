/**
 * Loop overhead of the Awaken runtime (through @awaken/provider-ai-sdk, memory store, checkpoints on)
 * against ai@6 `generateText` and `streamText`, all three driven by `MockLanguageModelV3` instances
 * answering the same scripted turns, interleaved in one process.
 *
 *   pnpm --filter @awaken/bench exec tsx src/runtime-overhead-same-model.ts
 *
 * Environment: BENCH_ROUNDS (measured rounds per scenario, default 60), BENCH_WARMUP (default 10),
 * BENCH_STREAMTEXT=1 to add ai@6 `streamText` as a fourth contender,
 * BENCH_WRITE=0 to skip writing results/runtime-overhead-same-model.md.
 */
import { writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { createAiSdkModelExecutor } from '@awaken/provider-ai-sdk';
import { createAgentRuntime } from '@awaken/runtime';
import { createMemoryRunEventLog, createMemoryThreadRunStore } from '@awaken/store-memory';
import { stepCountIs, streamText } from 'ai';
import { SAME_MODEL_SCENARIOS, aiTools, awakenNoop, generateTextContender } from './scenario-workload';
import { type Contender as BenchContender, measureInterleaved, percentile } from './internal/stats';
import { type Scenario, createScenarioModel } from './same-model-script';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 60);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 10);

type Contender = BenchContender<Scenario>;

/** The Awaken runtime on memory stores, with or without the run event log (every event appended). */
function awakenContender(name: string, withEventLog: boolean): Contender {
  return {
    name,
    async run(scenario) {
      const runtime = createAgentRuntime({
        agents: [
          {
            id: 'bench',
            tools: [awakenNoop],
            stopConditions: [{ type: 'max_rounds', rounds: scenario.steps + 1 }],
          },
        ],
        stores: {
          threadRuns: createMemoryThreadRunStore(),
          ...(withEventLog ? { eventLog: createMemoryRunEventLog() } : {}),
        },
        model: createAiSdkModelExecutor(createScenarioModel(scenario)),
      });
      const result = await runtime.runToCompletion({ agentId: 'bench', input: 'go' });
      if (result.status !== 'done' || result.steps !== scenario.steps + 1) {
        throw new Error(`awaken run ended ${JSON.stringify(result.termination)} after ${result.steps} steps`);
      }
    },
  };
}

const streamTextContender: Contender = {
  name: 'ai streamText',
  async run(scenario) {
    const result = streamText({
      model: createScenarioModel(scenario),
      tools: aiTools,
      stopWhen: stepCountIs(scenario.steps + 1),
      maxRetries: 0,
      prompt: 'go',
    });
    const steps = await result.steps;
    if (steps.length !== scenario.steps + 1) throw new Error(`streamText ran ${steps.length} steps`);
  },
};

const contenders: Contender[] = [
  awakenContender('awaken runtime', false),
  awakenContender('awaken + event log', true),
  generateTextContender,
  ...(process.env.BENCH_STREAMTEXT === '1' ? [streamTextContender] : []),
];

const measure = (scenario: Scenario) =>
  measureInterleaved(contenders, scenario, { warmup: WARMUP, rounds: ROUNDS });

async function main(): Promise<void> {
  const rows: string[] = [];
  for (const scenario of SAME_MODEL_SCENARIOS) {
    const samples = await measure(scenario);
    const modelCalls = scenario.steps + 1;
    const stats = [...samples].map(([name, values]) => ({
      name,
      median: percentile(values, 0.5),
      p90: percentile(values, 0.9),
    }));
    const medianOf = (name: string) => stats.find((stat) => stat.name === name)?.median;
    for (const { name, median, p90 } of stats) {
      rows.push(
        `| (${scenario.steps}, ${scenario.callsPerStep}) | ${name} | ${median.toFixed(2)} | ${p90.toFixed(2)} | ${((median / modelCalls) * 1000).toFixed(0)} | ${ratio(median, medianOf('ai generateText'))} | ${ratio(median, medianOf('ai streamText'))} |`,
      );
    }
  }
  const table = [
    '| (S, N) | contender | median run (ms) | p90 run (ms) | per step (µs) | × generateText | × streamText |',
    '|---|---|---:|---:|---:|---:|---:|',
    ...rows,
  ].join('\n');
  console.log(table);
  if (process.env.BENCH_WRITE !== '0') writeResults(table);
}

function ratio(value: number, base: number | undefined): string {
  return base === undefined ? '' : `${(value / base).toFixed(2)}`;
}

function writeResults(table: string): void {
  const environment = `Node ${process.version}, ${cpus()[0]?.model ?? 'unknown CPU'} × ${cpus().length}, ${ROUNDS} measured rounds after ${WARMUP} warm-up rounds per scenario, load average at the end ${loadavg()
    .map((value) => value.toFixed(1))
    .join(' / ')}`;
  const text = `# Runtime overhead with the same model: Awaken vs ai@6

Command (from the repository root): \`pnpm --filter @awaken/bench exec tsx src/runtime-overhead-same-model.ts\`

${environment}. Measured ${new Date().toISOString().slice(0, 10)}.

Every contender is driven by a fresh \`MockLanguageModelV3\` (from \`ai/test\`) answering the same script:
S model turns that each call the trivial tool \`noop\` N times, then one text turn, so each run makes
S + 1 model calls and S × N tool calls. Awaken runs through \`createAiSdkModelExecutor\` (\`doStream\`)
with \`@awaken/store-memory\`'s thread/run store (checkpoints on: the runtime writes one at
every checkpoint trigger: user message, assistant turn, tool results, run finished), once without and
once with \`createMemoryRunEventLog()\` (every AgentEvent appended to the run's log);
\`generateText\` uses \`doGenerate\`. Contenders are interleaved, rotating their order every round.
"per step" is the median run time divided by S + 1; "× generateText" is our median over its median
in the same run (the issue's target: ≤ 0.8 with the event log). Add \`BENCH_STREAMTEXT=1\` for ai@6
\`streamText\` as a fourth contender. Before/after figures of each change:
[runtime-overhead-same-model-changes.md](runtime-overhead-same-model-changes.md).

${table}

## Reading the numbers

- The ratios are the figure to compare; absolute times move with the machine's load (this host is
  shared with other work, hence wide p90s). Re-run the command for a fresh table.
- \`generateText\` is the floor: no streaming, no events, no persistence.
- Awaken additionally validates arguments with zod, emits and sequences every AgentEvent, runs the
  nine phases' plugin host, tracks each call in the ToolCallStatus machine, and writes a checkpoint
  (run record + messages + run state) at every trigger; ai@6 keeps nothing.
- The runtime calls its stores through their trusted views (see \`trustedViewOf\` in
  \`@awaken/contract\`): the records and events it built skip the store's input parse and are copied
  once, so what remains of the stores' cost is that one copy in and the copy out.
`;
  writeFileSync(new URL('../results/runtime-overhead-same-model.md', import.meta.url), text);
}

await main();
