/**
 * Benchmarks of the Awaken runtime's human-in-the-loop paths (memory stores), each side by side with
 * ai@6's tool execution approval flow (`needsApproval: true`, `tool-approval-request` /
 * `tool-approval-response`, see runtime-hitl-ai.ts) in the same process, interleaved with the order
 * rotated every round:
 * 1. decision → the approved tool's body starts: `decide()` on a hot waiting run vs the second
 *    `generateText` call with the approval response;
 * 2. resume from stored state whose history holds 10, 100 and 1,000 messages, until the final answer:
 *    a fresh runtime's `resumeRun` vs the second `generateText` given a message array of the same size;
 * 3. memory per waiting approval with 1,000 pending: hot waiting runs (`onSuspend: 'wait'`) vs the
 *    messages an ai@6 app keeps to continue (history + the first call's response messages).
 *
 *   pnpm --filter @awaken/bench exec tsx --expose-gc src/runtime-hitl.ts
 *
 * BENCH_WRITE=0 skips writing results/runtime-hitl.md.
 */
import { writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { createMemoryThreadRunStore } from '@awaken/store-memory';
import type { ModelMessage } from 'ai';
import { createAiHitl } from './runtime-hitl-ai';
import { approve, createAwakenHitl } from './runtime-hitl-awaken';
import { median, p90 } from './internal/stats';

let started: (() => void) | undefined;
const awaken = createAwakenHitl(() => started?.());
const ai = createAiHitl(() => started?.());
const toolStarted = () =>
  new Promise<void>((resolve) => {
    started = resolve;
  });

type Sample = () => Promise<number>;
/** Runs every contender once per round, order rotated each round; the first `warmup` rounds are dropped. */
async function interleave(contenders: Sample[], warmup: number, rounds: number): Promise<number[][]> {
  const samples = contenders.map(() => [] as number[]);
  for (let round = 0; round < warmup + rounds; round++) {
    for (let offset = 0; offset < contenders.length; offset++) {
      const index = (round + offset) % contenders.length;
      const value = await (contenders[index] as Sample)();
      if (round >= warmup) samples[index]?.push(value);
    }
  }
  return samples;
}

/** Ours: a hot waiting run, `decide()` → the approved tool's body starts. */
function awakenDecisionLatency(): Sample {
  const runtime = awaken.runtimeOn(createMemoryThreadRunStore());
  let index = 0;
  return async () => {
    const handle = runtime.run({ agentId: 'a', input: 'go', onSuspend: 'wait' });
    const iterator = handle[Symbol.asyncIterator]();
    let toolCallId = '';
    while (true) {
      const { value } = await iterator.next();
      if (value?.type === 'tool_call_suspended') toolCallId = value.toolCallId;
      if (value?.type === 'run_finish') break;
    }
    const replayed = toolStarted();
    const start = performance.now();
    await handle.decide(approve(toolCallId, `d${index++}`));
    await replayed;
    const latency = performance.now() - start;
    while (!(await iterator.next()).done) {}
    if ((await handle.result).status !== 'done') throw new Error('hot run did not finish');
    return latency;
  };
}

/** ai@6: the app holds the first call's messages; second `generateText` → the tool's `execute` starts. */
const aiDecisionLatency: Sample = async () => {
  const pending = await ai.firstTurn([{ role: 'user', content: 'go' }]);
  const replayed = toolStarted();
  const start = performance.now();
  const finished = ai.approve(pending);
  await replayed;
  const latency = performance.now() - start;
  if ((await finished).text !== 'ok') throw new Error('ai@6 second call did not finish');
  return latency;
};

/** Prior conversation shared by both sides: alternating user questions and assistant answers. */
const filler = (count: number) =>
  Array.from({ length: count }, (_, index) =>
    index % 2 === 0
      ? { role: 'user' as const, text: `question ${index} `.repeat(10) }
      : { role: 'assistant' as const, text: `answer ${index} `.repeat(20) },
  );

/** Ours: a fresh runtime loads record + messages from the store, applies the decision, replays, finishes. */
const awakenColdResume =
  (messages: number): Sample =>
  async () => {
    const store = createMemoryThreadRunStore();
    const { runId, toolCallId } = await awaken.waitingRunWithHistory(store, filler(messages - 3));
    const fresh = awaken.runtimeOn(store);
    const start = performance.now();
    const result = await fresh.resumeRun(runId, { decisions: [approve(toolCallId, 'd')] }).result;
    const time = performance.now() - start;
    if (result.status !== 'done') throw new Error('cold resume did not finish');
    return time;
  };

async function aiPendingWithHistory(messages: number) {
  const history: ModelMessage[] = filler(messages - 3).map(({ role, text }) => ({ role, content: text }));
  const pending = await ai.firstTurn([...history, { role: 'user', content: 'go' }]);
  if (pending.messages.length !== messages - 1) throw new Error('ai@6 setup failed');
  return pending;
}

/** ai@6: the second `generateText` given the stored array (same size), until it returns. */
const aiResume =
  (messages: number): Sample =>
  async () => {
    const pending = await aiPendingWithHistory(messages);
    const start = performance.now();
    const { text } = await ai.approve(pending);
    const time = performance.now() - start;
    if (text !== 'ok') throw new Error('ai@6 resume did not finish');
    return time;
  };

/** ai@6 plus the persistence an app adds: parse the stored JSON, call, serialize the new history. */
const aiResumeJson =
  (messages: number): Sample =>
  async () => {
    const stored = JSON.stringify(await aiPendingWithHistory(messages));
    const start = performance.now();
    const { text, messages: history } = await ai.approve(JSON.parse(stored));
    const saved = JSON.stringify(history);
    const time = performance.now() - start;
    if (text !== 'ok' || saved.length <= stored.length) throw new Error('ai@6 resume did not finish');
    return time;
  };

/** Heap in use after three rounds of (20 ms for timers of released work to fire, full GC). */
async function heapAfterGc(): Promise<number> {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('run with --expose-gc');
  for (let pass = 0; pass < 3; pass++) {
    await sleep(20);
    gc();
  }
  return process.memoryUsage().heapUsed;
}

async function awakenMemoryPerWaitingRun(count: number): Promise<number> {
  const store = createMemoryThreadRunStore();
  const runtime = awaken.runtimeOn(store);
  const before = await heapAfterGc();
  const handles = [];
  for (let index = 0; index < count; index++) {
    const handle = runtime.run({ agentId: 'a', input: 'go', onSuspend: 'wait' });
    handles.push(handle);
  }
  for (const handle of handles) {
    const iterator = handle[Symbol.asyncIterator]();
    while (true) {
      const { value } = await iterator.next();
      if (value?.type === 'run_finish') break;
    }
  }
  const after = await heapAfterGc();
  for (const handle of handles) handle.cancel('bench done');
  await Promise.all(handles.map((handle) => handle.result));
  // includes the memory store's copy of each run (record + 3 messages), which a Redis deployment keeps out of process
  return (after - before) / count;
}

/** Context for row 3: a cold waiting run (`onSuspend: 'return'`) is only the memory store's copy. */
async function awakenMemoryPerStoredWaitingRun(count: number): Promise<number> {
  const store = createMemoryThreadRunStore();
  const runtime = awaken.runtimeOn(store);
  const before = await heapAfterGc();
  let runId = '';
  for (let index = 0; index < count; index++) {
    const result = await runtime.runToCompletion({ agentId: 'a', input: 'go' });
    if (result.status !== 'waiting') throw new Error('cold run did not wait');
    runId = result.runId;
  }
  const after = await heapAfterGc();
  if (!(await store.getRun(runId))) throw new Error('stored run missing');
  return (after - before) / count;
}

async function aiMemoryPerPendingApproval(count: number): Promise<number> {
  const before = await heapAfterGc();
  const pending = [];
  for (let index = 0; index < count; index++)
    pending.push(await ai.firstTurn([{ role: 'user', content: 'go' }]));
  const after = await heapAfterGc();
  if ((await ai.approve(pending[count - 1] as (typeof pending)[number])).text !== 'ok')
    throw new Error('ai@6 pending approval did not resume');
  return (after - before) / count;
}

const ms = (value: number, digits: number) => value.toFixed(digits);
const ratio = (ours: number, theirs: number) => (ours / theirs).toFixed(2);

async function main(): Promise<void> {
  const loadBefore = loadavg();
  const [oursLatency = [], aiLatency = []] = await interleave(
    [awakenDecisionLatency(), aiDecisionLatency],
    50,
    300,
  );
  const resumeRows: string[] = [];
  for (const size of [10, 100, 1000]) {
    const [ours = [], pure = [], json = []] = await interleave(
      [awakenColdResume(size), aiResume(size), aiResumeJson(size)],
      5,
      40,
    );
    resumeRows.push(
      `| ${size} | ${ms(median(ours), 2)} / ${ms(p90(ours), 2)} | ${ms(median(pure), 2)} / ${ms(p90(pure), 2)} | ${ratio(median(ours), median(pure))} | ${ms(median(json), 2)} / ${ms(p90(json), 2)} | ${ratio(median(ours), median(json))} |`,
    );
  }
  const memorySides = [
    awakenMemoryPerWaitingRun,
    aiMemoryPerPendingApproval,
    awakenMemoryPerStoredWaitingRun,
  ];
  const [oursMemory = [], aiMemory = [], storedMemory = []] = await interleave(
    memorySides.map((side) => () => side(1000)),
    0,
    6,
  );
  const kib = (values: number[]) => (median(values) / 1024).toFixed(1);
  const range = (values: number[]) =>
    `${(Math.min(...values) / 1024).toFixed(1)}–${(Math.max(...values) / 1024).toFixed(1)}`;
  const loadAfter = loadavg();
  const text = [
    '## 1. Decision → approved tool body starts',
    '',
    '| contender | samples | median (ms) | p90 (ms) |',
    '|---|---:|---:|---:|',
    `| Awaken: \`handle.decide()\` on a hot waiting run | ${oursLatency.length} | ${ms(median(oursLatency), 3)} | ${ms(p90(oursLatency), 3)} |`,
    `| ai@6: second \`generateText\` with the approval response | ${aiLatency.length} | ${ms(median(aiLatency), 3)} | ${ms(p90(aiLatency), 3)} |`,
    '',
    `Ratio Awaken / ai@6: **${ratio(median(oursLatency), median(aiLatency))}** (median), ${ratio(p90(oursLatency), p90(aiLatency))} (p90).`,
    '',
    '## 2. Resume from stored state until the final answer (median / p90, ms)',
    '',
    '| messages | Awaken `resumeRun` (fresh runtime, memory store) | ai@6 second `generateText` | ratio Awaken / ai@6 | ai@6 + JSON load/save | ratio Awaken / (ai@6 + JSON) |',
    '|---:|---:|---:|---:|---:|---:|',
    ...resumeRows,
    '',
    '## 3. Memory per waiting approval (1,000 pending, heap delta after GC)',
    '',
    '| contender | median of 6 rounds (KiB) | range (KiB) |',
    '|---|---:|---:|',
    `| Awaken: hot waiting run (\`onSuspend: 'wait'\`), incl. the memory store's copy | ${kib(oursMemory)} | ${range(oursMemory)} |`,
    `| ai@6: messages kept to continue (prompt + first call's response messages) | ${kib(aiMemory)} | ${range(aiMemory)} |`,
    `| context: Awaken cold waiting run (\`onSuspend: 'return'\`), i.e. the memory store's copy alone | ${kib(storedMemory)} | ${range(storedMemory)} |`,
    '',
    `Ratio Awaken (hot) / ai@6: **${ratio(median(oursMemory), median(aiMemory))}**; the hot run's live part (hot − cold) is ${((median(oursMemory) - median(storedMemory)) / 1024).toFixed(1)} KiB.`,
  ].join('\n');
  console.log(text);
  const load = (values: number[]) => values.map((value) => value.toFixed(2)).join(' / ');
  console.log(`load average before ${load(loadBefore)}, after ${load(loadAfter)}`);
  if (process.env.BENCH_WRITE === '0') return;
  writeFileSync(
    new URL('../results/runtime-hitl.md', import.meta.url),
    `# Runtime HITL benchmarks: Awaken vs ai@6 tool approval

Command (from the repository root): \`pnpm --filter @awaken/bench exec tsx --expose-gc src/runtime-hitl.ts\`

Node ${process.version}, ${cpus()[0]?.model ?? 'unknown CPU'} × ${cpus().length}; load average (1 / 5 / 15 min)
${load(loadBefore)} at the start, ${load(loadAfter)} at the end; measured ${new Date().toISOString().slice(0, 10)}.

Both sides run the same script in one process: one tool \`danger\` that needs approval; the model calls
it when the last message is the user's and answers \`ok\` otherwise; each run asks once and is approved
once. Awaken: \`createAgentRuntime\`, approval by a ToolGate plugin, native in-memory ModelExecutor,
\`@awaken/store-memory\`. ai@6 (\`ai\` 6.0): \`tool({ needsApproval: true })\`, \`generateText\` driven by
\`MockLanguageModelV3\` (\`ai/test\`); the first call returns a \`tool-approval-request\`, the second gets the
history + that call's response messages + a tool message with
\`{ type: 'tool-approval-response', approvalId, approved: true }\`. Contenders are interleaved, order
rotated every round, warm-up rounds dropped (1: 50 warm-up + 300 measured; 2: 5 + 40 per size).

What each side does:
- **1.** Awaken: \`decide()\` validates the decision against the waiting run's state, records it, wakes the
  live run, which replays the call through the ToolGate. ai@6: the app builds the message array and calls
  \`generateText\`, which validates the prompt, matches the approval to its call, revalidates the input and
  executes. Timer stops at the first line of the tool body on both sides.
- **2.** Awaken: a fresh runtime loads the run record and the thread's messages from the store, applies
  the decision, replays the tool, checkpoints (tool result + final answer + record), calls the model
  and finishes. ai@6 persists nothing: it is given the in-memory array (N − 1 messages + the approval
  tool message), executes the tool, calls the model and returns. The "+ JSON" column adds the least an
  ai@6 app must do to resume from storage: \`JSON.parse\` of the stored array and \`JSON.stringify\` of
  the new history. N counts the thread's messages after the tool result (N − 1 stored while waiting).
- **3.** Awaken: 1,000 live runs parked in \`onSuspend: 'wait'\` (handle, event stream, run state, plus the
  memory store's copy of each record and its 3 messages — a Redis store keeps that part out of
  process). ai@6: the minimum an app keeps to continue later: the user message + the first call's
  response messages (assistant tool call + approval request) and the approval id; no live object.
  A cold waiting run (\`onSuspend: 'return'\`, nothing live) is listed for context. Each is measured
  6 times, order rotated; heap is read after three rounds of
  (wait 20 ms, full GC), since a cancelled hot run's memory is released a few ms after its \`result\`.

${text}
`,
  );
}

await main();
