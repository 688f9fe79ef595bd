/**
 * Which runtime source files one decision crosses, from `handle.decide` to the store write of the
 * first checkpoint that records it: `pnpm exec tsx packages/runtime/test-support/decision-path.ts
 * [--no-inbox]`. A live waiting run (`onSuspend: 'wait'`, approval plugin, replayed call) gets one
 * approval. With the store bundle's inbox, the decision is recorded by the checkpoint right after the
 * RESUME gate applied it; without one, by the checkpoint after the tool round. V8's precise coverage
 * is reset right before `decide` and read inside that checkpoint write (observed on the store's
 * trusted view, which the runtime calls, and on the store itself), so the files listed are exactly
 * those with code executed in between.
 */
import { Session } from 'node:inspector';
import { fileURLToPath } from 'node:url';
import { trustedViewOf } from '@awaken/contract';
import { createMemoryStores } from '@awaken/store-memory';
import { createScriptedModel } from '@awaken/testing';
import { createAgentRuntime } from '../src/create-agent-runtime';
import { approvalPlugin, recordingTool } from './approval';

type Coverage = { result: Array<{ url: string; functions: Array<{ ranges: Array<{ count: number }> }> }> };

const inspector = new Session();
inspector.connect();
const post = <T>(method: string, params?: object) =>
  new Promise<T>((resolve, reject) =>
    inspector.post(method, params, (error, result) => (error ? reject(error) : resolve(result as T))),
  );

const source = fileURLToPath(new URL('../src/', import.meta.url));
let window: Promise<Coverage> | undefined;
let armed = false;

const withInbox = !process.argv.includes('--no-inbox');
const bundle = createMemoryStores();
const stores = withInbox ? bundle : { threadRuns: bundle.threadRuns };
// the runtime calls the store's trusted view (`trustedViewOf`), a different object: observe both
for (const target of new Set([stores.threadRuns, trustedViewOf(stores.threadRuns)])) {
  const commit = target.commitCheckpoint.bind(target);
  target.commitCheckpoint = (checkpoint) => {
    if (armed && checkpoint.trigger === 'tool_results_committed' && window === undefined) {
      window = post<Coverage>('Profiler.takePreciseCoverage');
    }
    return commit(checkpoint);
  };
}
const danger = recordingTool('danger');
const runtime = createAgentRuntime({
  agents: [
    {
      id: 'agent',
      model: createScriptedModel([
        { toolCalls: [{ id: 'a', name: 'danger', arguments: {} }] },
        { text: 'ok' },
      ]),
      tools: [danger.tool],
      plugins: [approvalPlugin(['danger'])],
    },
  ],
  stores,
});

await post('Profiler.enable');
await post('Profiler.startPreciseCoverage', { callCount: true, detailed: false });
const handle = runtime.run({ agentId: 'agent', runId: 'r', input: 'go', onSuspend: 'wait' });
const reading = (async () => {
  for await (const _event of handle);
})();
while ((await stores.threadRuns.getRun('r'))?.status !== 'waiting')
  await new Promise((r) => setTimeout(r, 1));
await post('Profiler.takePreciseCoverage'); // resets the counts
armed = true;
await handle.decide({
  toolCallId: 'a',
  decisionId: 'd1',
  action: 'resume',
  result: { approved: true },
  updatedAt: 1,
});
await handle.result;
await reading;
const coverage = await window;
if (!coverage) throw new Error('no tool_results_committed checkpoint after the decision');
const files = coverage.result
  .filter((script) => script.url.startsWith('file://') && fileURLToPath(script.url).startsWith(source))
  .filter((script) => script.functions.some((fn) => fn.ranges[0] && fn.ranges[0].count > 0))
  .map((script) => fileURLToPath(script.url).slice(source.length))
  .sort();
console.log(
  `${files.length} runtime files between handle.decide and the checkpoint write (${withInbox ? 'with' : 'without'} an inbox):`,
);
for (const file of files) console.log(`  ${file}`);
