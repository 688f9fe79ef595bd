/**
 * Per-step loop overhead of the Awaken runtime (native scripted ModelExecutor,
 * @awaken/store-memory, checkpoints on) against ai@6 `generateText` driven by `MockLanguageModelV3`
 * (from `ai/test`), the same workload interleaved in one process: S model turns that each call a
 * trivial tool N times, then one text turn.
 *
 *   pnpm --filter @awaken/bench exec tsx src/runtime-overhead.ts
 *
 * Environment: BENCH_ROUNDS (default 60), BENCH_WARMUP (default 10), BENCH_WRITE=0 to skip writing
 * results/runtime-overhead.md.
 */
import { writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import type { InferenceStreamPart, ModelExecutor } from '@awaken/contract';
import { createAgentRuntime } from '@awaken/runtime';
import { createMemoryThreadRunStore } from '@awaken/store-memory';
import { SCENARIOS, awakenNoop, generateTextContender } from './scenario-workload';
import { type Contender as BenchContender, measureInterleaved, median } from './internal/stats';
import type { Scenario } from './same-model-script';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 60);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 10);
const USAGE = { inputTokens: 10, outputTokens: 5, totalTokens: 15 };

/** The scenario as native stream parts: the cheapest possible model, so the loop is what is measured. */
function scenarioExecutor(scenario: Scenario): ModelExecutor {
  let turn = 0;
  return {
    modelId: 'bench',
    async *stream() {
      const current = turn++;
      const parts: InferenceStreamPart[] = [];
      if (current >= scenario.steps) {
        parts.push({ type: 'text_delta', delta: 'All ' }, { type: 'text_delta', delta: 'done.' });
        parts.push({ type: 'finish', finishReason: 'stop', usage: USAGE });
      } else {
        for (let index = 0; index < scenario.callsPerStep; index++) {
          const toolCallId = `call_${current}_${index}`;
          const input = JSON.stringify({ value: `${current}-${index}` });
          parts.push({ type: 'tool_call_start', toolCallId, toolName: 'noop' });
          parts.push({ type: 'tool_call_args_delta', toolCallId, delta: input });
          parts.push({ type: 'tool_call', toolCallId, toolName: 'noop', input });
        }
        parts.push({ type: 'finish', finishReason: 'tool-calls', usage: USAGE });
      }
      yield* parts;
    },
  };
}

type Contender = BenchContender<Scenario>;

const contenders: Contender[] = [
  {
    name: 'awaken runtime',
    async run(scenario) {
      const runtime = createAgentRuntime({
        agents: [
          {
            id: 'bench',
            tools: [awakenNoop],
            toolExecution: 'parallel',
            stopConditions: [{ type: 'max_rounds', rounds: scenario.steps + 1 }],
          },
        ],
        stores: { threadRuns: createMemoryThreadRunStore() },
        model: scenarioExecutor(scenario),
      });
      const handle = runtime.run({ agentId: 'bench', input: 'go' });
      for await (const _event of handle) {
        // drain the event stream like a consumer would
      }
      const result = await handle.result;
      if (result.status !== 'done' || result.steps !== scenario.steps + 1) {
        throw new Error(`awaken run ended ${JSON.stringify(result.termination)} after ${result.steps} steps`);
      }
    },
  },
  generateTextContender,
];

const measure = (scenario: Scenario) =>
  measureInterleaved(contenders, scenario, { warmup: WARMUP, rounds: ROUNDS });

async function main(): Promise<void> {
  const rows: string[] = [];
  for (const scenario of SCENARIOS) {
    const samples = await measure(scenario);
    const steps = scenario.steps + 1;
    const awaken = median(samples.get('awaken runtime') ?? []);
    const ai = median(samples.get('ai generateText') ?? []);
    rows.push(
      `| (${scenario.steps}, ${scenario.callsPerStep}) | ${((awaken / steps) * 1000).toFixed(0)} | ${((ai / steps) * 1000).toFixed(0)} | ${(awaken / ai).toFixed(2)} |`,
    );
  }
  const table = [
    '| (S, N) | Awaken per step (µs) | ai generateText per step (µs) | ratio Awaken / ai |',
    '|---|---:|---:|---:|',
    ...rows,
  ].join('\n');
  console.log(table);
  if (process.env.BENCH_WRITE === '0') return;
  const environment = `Node ${process.version}, ${cpus()[0]?.model ?? 'unknown CPU'} × ${cpus().length}, ${ROUNDS} measured rounds after ${WARMUP} warm-up per scenario, load average ${loadavg()
    .map((value) => value.toFixed(1))
    .join(' / ')}`;
  writeFileSync(
    new URL('../results/runtime-overhead.md', import.meta.url),
    `# Runtime overhead: Awaken run loop vs ai@6 generateText

Command (from the repository root): \`pnpm --filter @awaken/bench exec tsx src/runtime-overhead.ts\`

${environment}. Measured ${new Date().toISOString().slice(0, 10)}.

Workload: S model turns, each returning N calls to a trivial tool, then one text turn (S + 1 model
calls, S × N tool calls). Awaken: \`createAgentRuntime\` with a native ModelExecutor that yields the
turn's parts from memory, \`@awaken/store-memory\` (a checkpoint at every checkpoint trigger), parallel
executor, events drained. ai@6: \`generateText\` with \`MockLanguageModelV3\` (\`doGenerate\`), no
persistence. Runs interleaved, order rotated each round; per step = median run time / (S + 1).

${table}

Awaken's per-step work on top of the AI SDK loop: zod argument validation, one AgentEvent per part
(sequenced), nine-phase plugin host, the ToolCallStatus machine per call, and an atomic checkpoint of
messages + run record (tool call states under the durable run-state paths) at each trigger.
`,
  );
}

await main();
