/**
 * Which source files one decision crosses on its way from the HTTP route to the checkpoint that
 * records the replayed tool's result: `pnpm exec tsx packages/server/test-support/decision-path.ts
 * [--no-hot-cache] [--functions]` (from the repository root; `npx --yes pnpm@10.34.9 exec tsx …`
 * where pnpm is not installed). The sibling of `packages/runtime/test-support/decision-path.ts`, which
 * starts at `handle.decide`.
 *
 * Set-up (not measured): the server's HTTP app (`createHttpApp`, one bearer token) over one mailbox
 * service (`createMailboxService`) on the memory stores, one agent whose tool `danger` an approval
 * plugin suspends. `POST /v1/runs` (`stream: false`) submits a run; the script polls
 * `GET /v1/runs/:id` until the run is `waiting`.
 *
 * The window: V8's precise coverage (node:inspector, `callCount: true`, function granularity) is reset
 * right before `app.request('POST /v1/runs/:id/decision')` and read inside the store's
 * `commitCheckpoint` of the first `tool_results_committed` checkpoint after it — the checkpoint that
 * records the replayed call's result. By default the service still holds the suspended run in its hot
 * cache and resumes it in this process at once; `--no-hot-cache` (`hotCacheSize: 0`) makes the decision
 * go through a resume dispatch that a worker claims, and the run is restored from its checkpoint.
 *
 * What is counted, from the coverage read in that window:
 * - files: the source files (`packages/<name>/src/…`, `apps/<name>/src/…`) with at least one function
 *   that ran in the window, listed per package; code of dependencies (node_modules) is summed apart.
 * - executed functions: functions (as V8 lists them: declarations, methods, arrows, a module's top
 *   level) whose invocation count in the window is above zero.
 * - invocations: the sum of those counts, as V8 counts entries into a function.
 * Coverage does not say who called whom, so calls from one file into another are not counted; every
 * such call is an invocation of a function of the callee's file, so the invocations of a file bound
 * the calls into it from above. Anything else the process runs in the window counts too (the
 * service's timers are set far apart so that none falls due).
 */
import { Session } from 'node:inspector';
import { relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Plugin, defineTool } from '@awaken/contract';
import { createMemoryStores } from '@awaken/store-memory';
import { createScriptedModel } from '@awaken/testing';
import { z } from 'zod';
import { createHttpApp, createMailboxService } from '../src/index';

type Coverage = {
  result: Array<{
    url: string;
    functions: Array<{ functionName: string; ranges: Array<{ count: number }> }>;
  }>;
};

const inspector = new Session();
inspector.connect();
const post = <T>(method: string, params?: object) =>
  new Promise<T>((done, fail) =>
    inspector.post(method, params, (error, result) => (error ? fail(error) : done(result as T))),
  );

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
const hotCache = !process.argv.includes('--no-hot-cache');
const listFunctions = process.argv.includes('--functions');

const approval: Plugin = {
  id: 'approval',
  hooks: {
    toolGate(context) {
      if (context.call.name !== 'danger' || context.resume) return undefined;
      return {
        type: 'suspend',
        suspension: {
          id: `ticket_${context.call.id}`,
          action: 'approve',
          message: 'run danger?',
          parameters: {},
        },
      };
    },
  },
};
const danger = defineTool({
  name: 'danger',
  description: 'needs an approval',
  parameters: z.object({}).passthrough(),
  execute: () => ({ ran: 'danger' }),
});

let window: Promise<Coverage> | undefined;
let armed = false;
const stores = createMemoryStores();
const commit = stores.threadRuns.commitCheckpoint.bind(stores.threadRuns);
stores.threadRuns.commitCheckpoint = (checkpoint) => {
  if (armed && checkpoint.trigger === 'tool_results_committed' && window === undefined) {
    window = post<Coverage>('Profiler.takePreciseCoverage');
  }
  return commit(checkpoint);
};

const service = createMailboxService({
  agents: [
    {
      id: 'agent',
      model: createScriptedModel([
        { toolCalls: [{ id: 'a', name: 'danger', arguments: {} }] },
        { text: 'ok' },
      ]),
      tools: [danger],
      plugins: [approval],
    },
  ],
  stores,
  concurrency: 1,
  // no lease heartbeat, sweep or idle wake-up falls due inside the window
  leaseMs: 600_000,
  idleWaitMs: 600_000,
  hotCacheSize: hotCache ? 16 : 0,
});
await service.start();
const TOKEN = 'decision-path-token-0123456789';
const { app } = createHttpApp({ tenants: { acme: service }, tokens: [{ token: TOKEN, tenant: 'acme' }] });
const request = (path: string, body?: unknown) =>
  Promise.resolve(
    app.request(path, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    }),
  );

await post('Profiler.enable');
await post('Profiler.startPreciseCoverage', { callCount: true, detailed: false });

const submitted = await request('/v1/runs', { agentId: 'agent', input: 'go', stream: false });
if (submitted.status !== 202) throw new Error(`submit: ${submitted.status} ${await submitted.text()}`);
const { runId } = (await submitted.json()) as { runId: string };
const statusOf = async () =>
  ((await (await request(`/v1/runs/${runId}`)).json()) as { status: string }).status;
for (let tries = 0; (await statusOf()) !== 'waiting'; tries += 1) {
  if (tries > 5_000) throw new Error('the run never waited for its approval');
  await new Promise((r) => setTimeout(r, 1));
}

await post('Profiler.takePreciseCoverage'); // resets the counts
armed = true;
const decided = await request(`/v1/runs/${runId}/decision`, {
  toolCallId: 'a',
  decisionId: 'd1',
  result: { approved: true },
});
if (decided.status !== 200) throw new Error(`decision: ${decided.status} ${await decided.text()}`);
for (let tries = 0; window === undefined; tries += 1) {
  if (tries > 5_000) throw new Error('no tool_results_committed checkpoint after the decision');
  await new Promise((r) => setTimeout(r, 1));
}
const coverage = await window;
for (let tries = 0; (await statusOf()) !== 'done'; tries += 1) {
  if (tries > 5_000) throw new Error('the run did not finish after its approval');
  await new Promise((r) => setTimeout(r, 1));
}
await service.stop({ graceMs: 1_000 });
inspector.disconnect();

interface FileCount {
  functions: string[];
  invocations: number;
}
const ours = new Map<string, Map<string, FileCount>>(); // package folder → file → counts
const dependencies = new Map<string, FileCount & { files: number }>(); // dependency name → counts
for (const script of coverage.result) {
  if (!script.url.startsWith('file://')) continue;
  const ran = script.functions.filter((fn) => (fn.ranges[0]?.count ?? 0) > 0);
  if (ran.length === 0) continue;
  const count: FileCount = {
    functions: ran.map((fn) => fn.functionName || '(top level)'),
    invocations: ran.reduce((sum, fn) => sum + (fn.ranges[0]?.count ?? 0), 0),
  };
  const path = relative(repoRoot, fileURLToPath(script.url)).split(sep).join('/');
  const modules = path.lastIndexOf('node_modules/');
  if (modules >= 0) {
    const parts = path.slice(modules + 'node_modules/'.length).split('/');
    const name = parts[0]?.startsWith('@') ? `${parts[0]}/${parts[1]}` : (parts[0] ?? '?');
    const sum = dependencies.get(name) ?? { functions: [], invocations: 0, files: 0 };
    sum.functions.push(...count.functions);
    sum.invocations += count.invocations;
    sum.files += 1;
    dependencies.set(name, sum);
    continue;
  }
  const match = /^((?:packages|apps)\/[^/]+)\/src\/(.+)$/.exec(path);
  if (!match?.[1] || !match[2]) continue; // this script, test-support, …
  const files = ours.get(match[1]) ?? new Map<string, FileCount>();
  files.set(match[2], count);
  ours.set(match[1], files);
}

const all = [...ours.values()].flatMap((files) => [...files.values()]);
const functions = all.reduce((sum, file) => sum + file.functions.length, 0);
const invocations = all.reduce((sum, file) => sum + file.invocations, 0);
console.log(
  `POST /v1/runs/:id/decision → tool_results_committed checkpoint (${hotCache ? 'hot cache: resumed in place' : 'no hot cache: resume dispatch, restored from the checkpoint'})`,
);
console.log(
  `${all.length} source files in ${ours.size} packages, ${functions} executed functions, ${invocations} invocations`,
);
for (const [folder, files] of [...ours.entries()].sort(([a], [b]) => a.localeCompare(b))) {
  const pkgFunctions = [...files.values()].reduce((sum, file) => sum + file.functions.length, 0);
  console.log(`${folder}/src: ${files.size} files, ${pkgFunctions} functions`);
  for (const [file, count] of [...files.entries()].sort(([a], [b]) => a.localeCompare(b))) {
    const names = listFunctions ? `  ${count.functions.join(', ')}` : '';
    console.log(
      `  ${file.padEnd(48)} ${String(count.functions.length).padStart(3)} fn ${String(count.invocations).padStart(5)} calls${names}`,
    );
  }
}
const depFiles = [...dependencies.values()].reduce((sum, dep) => sum + dep.files, 0);
const depFunctions = [...dependencies.values()].reduce((sum, dep) => sum + dep.functions.length, 0);
console.log(
  `dependencies: ${depFiles} files, ${depFunctions} functions (${[...dependencies.entries()]
    .sort(([, a], [, b]) => b.functions.length - a.functions.length)
    .map(([name, dep]) => `${name} ${dep.files}/${dep.functions.length}`)
    .join(', ')})`,
);
process.exit(0);
