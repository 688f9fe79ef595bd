/**
 * Issue 4 benchmarks for the Awaken runtime's HITL paths (memory stores):
 * 1. decision-to-replay latency of a hot waiting run (`decide()` → the approved tool's body starts);
 * 2. cold resume time from a checkpoint whose thread holds 10, 100 and 1,000 messages
 *    (fresh runtime: load record + messages, apply the decision, replay, finish);
 * 3. memory held per hot waiting run, with 1,000 runs parked in `onSuspend: 'wait'`.
 *
 *   pnpm --filter @awaken/bench exec tsx --expose-gc src/runtime-hitl.ts
 *
 * BENCH_WRITE=0 skips writing results/runtime-hitl.md.
 */
import { writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { performance } from 'node:perf_hooks';
import { type ModelExecutor, type Plugin, type ThreadRunStore, defineTool } from '@awaken/contract';
import { createAgentRuntime } from '@awaken/runtime';
import { createMemoryThreadRunStore } from '@awaken/store-memory';
import { z } from 'zod';

const USAGE = { inputTokens: 10, outputTokens: 5, totalTokens: 15 };
let started: (() => void) | undefined;
const danger = defineTool({
  name: 'danger',
  description: 'needs approval',
  parameters: z.object({}).passthrough(),
  execute: () => {
    started?.();
    return { ok: true };
  },
});
const approval: Plugin = {
  id: 'approval',
  hooks: {
    toolGate: (context) =>
      context.resume
        ? undefined
        : {
            type: 'suspend',
            suspension: { id: `t_${context.call.id}`, action: 'approve', message: '?', parameters: {} },
          },
  },
};

/** Calls `danger` when the last message is the user's, otherwise answers with text. */
const model: ModelExecutor = {
  modelId: 'bench',
  async *stream(request) {
    const last = request.messages.at(-1);
    if (last?.role === 'user') {
      const id = `call_${request.messages.length}`;
      yield { type: 'tool_call_start', toolCallId: id, toolName: 'danger' };
      yield { type: 'tool_call', toolCallId: id, toolName: 'danger', input: '{}' };
      yield { type: 'finish', finishReason: 'tool-calls', usage: USAGE };
    } else {
      yield { type: 'text_delta', delta: 'ok' };
      yield { type: 'finish', finishReason: 'stop', usage: USAGE };
    }
  },
};

const runtimeOn = (store: ThreadRunStore) =>
  createAgentRuntime({ agents: [{ id: 'a', tools: [danger], plugins: [approval] }], store, model });
const decision = (toolCallId: string, id: string) => ({
  toolCallId,
  decisionId: id,
  action: 'resume' as const,
  result: true,
  updatedAt: Date.now(),
});
const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;
const p90 = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length * 0.9)] ?? Number.NaN;

async function decisionLatency(samples: number): Promise<number[]> {
  const runtime = runtimeOn(createMemoryThreadRunStore());
  const latencies: number[] = [];
  for (let index = 0; index < samples; index++) {
    const handle = runtime.run({ agentId: 'a', input: 'go', onSuspend: 'wait' });
    const iterator = handle[Symbol.asyncIterator]();
    let toolCallId = '';
    while (true) {
      const { value } = await iterator.next();
      if (value?.type === 'tool_call_suspended') toolCallId = value.toolCallId;
      if (value?.type === 'run_finish') break;
    }
    const replayed = new Promise<void>((resolve) => {
      started = resolve;
    });
    const start = performance.now();
    await handle.decide(decision(toolCallId, `d${index}`));
    await replayed;
    latencies.push(performance.now() - start);
    while (!(await iterator.next()).done) {}
    await handle.result;
  }
  return latencies;
}

/** Builds a thread with `messages` prior messages and a waiting run at its end; returns its run id. */
async function waitingRunWithHistory(
  store: ThreadRunStore,
  messages: number,
): Promise<{ runId: string; toolCallId: string }> {
  const thread = await store.createThread({ id: `t${messages}_${Math.random()}` });
  const filler = Array.from({ length: messages - 3 }, (_, index) => ({
    visibility: 'external' as const,
    message:
      index % 2 === 0
        ? { role: 'user' as const, content: `question ${index} `.repeat(10) }
        : { role: 'assistant' as const, text: `answer ${index} `.repeat(20), toolCalls: [] },
  }));
  await store.appendMessages(thread.id, { expectedLength: 0, messages: filler });
  const result = await runtimeOn(store).runToCompletion({ agentId: 'a', threadId: thread.id, input: 'go' });
  const toolCallId = result.waiting?.tickets[0]?.toolCallId;
  if (!toolCallId || (await store.messageCount(thread.id)) !== messages - 1) throw new Error('setup failed');
  return { runId: result.runId, toolCallId };
}

async function coldResume(messages: number, samples: number): Promise<number[]> {
  const times: number[] = [];
  for (let index = 0; index < samples; index++) {
    const store = createMemoryThreadRunStore();
    const { runId, toolCallId } = await waitingRunWithHistory(store, messages);
    const fresh = runtimeOn(store);
    const start = performance.now();
    const result = await fresh.resumeRun(runId, { decisions: [decision(toolCallId, 'd')] }).result;
    times.push(performance.now() - start);
    if (result.status !== 'done') throw new Error('cold resume did not finish');
  }
  return times;
}

async function memoryPerWaitingRun(count: number): Promise<number> {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('run with --expose-gc');
  const store = createMemoryThreadRunStore();
  const runtime = runtimeOn(store);
  gc();
  const before = process.memoryUsage().heapUsed;
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
  gc();
  const after = process.memoryUsage().heapUsed;
  for (const handle of handles) handle.cancel('bench done');
  await Promise.all(handles.map((handle) => handle.result));
  // includes the memory store's copy of each run (record + 3 messages), which a Redis deployment keeps out of process
  return (after - before) / count;
}

async function main(): Promise<void> {
  await decisionLatency(50);
  const latency = await decisionLatency(300);
  const resumeRows: string[] = [];
  for (const size of [10, 100, 1000]) {
    await coldResume(size, 5);
    const times = await coldResume(size, 40);
    resumeRows.push(`| ${size} | ${median(times).toFixed(2)} | ${p90(times).toFixed(2)} |`);
  }
  const perRun = await memoryPerWaitingRun(1000);
  const text = [
    '## Decision-to-replay latency (hot waiting run)',
    '',
    '| samples | median (ms) | p90 (ms) |',
    '|---:|---:|---:|',
    `| ${latency.length} | ${median(latency).toFixed(3)} | ${p90(latency).toFixed(3)} |`,
    '',
    '## Cold resume from a checkpoint (fresh runtime, decision applied, replay, final answer)',
    '',
    '| messages in thread | median (ms) | p90 (ms) |',
    '|---:|---:|---:|',
    ...resumeRows,
    '',
    '## Memory per hot waiting run (1,000 runs parked with onSuspend: wait)',
    '',
    `${(perRun / 1024).toFixed(1)} KiB per run (heap delta after GC, including the memory store's copy of each run's record and messages).`,
  ].join('\n');
  console.log(text);
  if (process.env.BENCH_WRITE === '0') return;
  writeFileSync(
    new URL('../results/runtime-hitl.md', import.meta.url),
    `# Runtime HITL benchmarks

Command (from the repository root): \`pnpm --filter @awaken/bench exec tsx --expose-gc src/runtime-hitl.ts\`

Node ${process.version}, ${cpus()[0]?.model ?? 'unknown CPU'} × ${cpus().length}, memory stores
(\`@awaken/store-memory\`), a native in-memory model; measured ${new Date().toISOString().slice(0, 10)}.
The agent has one tool behind a ToolGate approval; each run suspends once and is approved once.

${text}
`,
  );
}

await main();
