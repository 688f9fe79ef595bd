/**
 * Which source files one decision crosses on its way from each door of the server to the checkpoint
 * that records the replayed tool's result, and how many times the contract's `judgeDecision` runs for
 * it: `pnpm exec tsx packages/server/test-support/decision-path.ts [--no-hot-cache] [--files]
 * [--functions]` (from the repository root; `npx --yes pnpm@10.34.9 exec tsx …` where pnpm is not
 * installed). The sibling of `packages/runtime/test-support/decision-path.ts`, which starts at
 * `handle.decide`.
 *
 * Set-up (not measured): the server's HTTP app (`createHttpApp`, one bearer token, the A2A routes on)
 * over one mailbox service (`createMailboxService`) on the memory stores, one agent whose tool
 * `danger` an approval plugin suspends. For each door in turn a run is started through that door on a
 * thread of its own and left waiting for the approval (see `decision-path/doors.ts`):
 * - REST: `POST /v1/runs/:id/decision`;
 * - AI SDK: a chat continuation whose assistant message carries the approved tool part;
 * - AG-UI: a `POST …/run` with a `resume[]` entry for the run's interrupt;
 * - A2A: a `SendMessage` on the waiting task with the approval's data part.
 *
 * The windows: V8's precise coverage (node:inspector, `callCount: true`, function granularity) is
 * reset right before the door's request (through `app.request`). The first window ends inside the
 * store's `commitCheckpoint` of the first `tool_results_committed` checkpoint after it — the
 * checkpoint that records the replayed call's result; the second once the door's response is read to
 * its end and the run is done. The runtime calls its store's trusted view (`trustedViewOf`, through
 * the service's hot run cache), so the checkpoint is observed there, and on the store itself too.
 * By default the service still holds the suspended run in its hot cache and resumes it in this
 * process at once; `--no-hot-cache` (`hotCacheSize: 0`) makes the decision go through a resume
 * dispatch that a worker claims, and the run is restored from its checkpoint.
 *
 * What is counted:
 * - files (first window): the source files (`packages/<name>/src/…`, `apps/<name>/src/…`) with at
 *   least one function that ran, per package (listed with `--files`); code of dependencies
 *   (node_modules) is summed apart;
 * - executed functions (first window): functions (as V8 lists them: declarations, methods, arrows, a
 *   module's top level) whose invocation count is above zero (named with `--functions`);
 * - invocations (first window): the sum of those counts, as V8 counts entries into a function;
 * - judgeDecision (both windows): the invocations of `judgeDecision` of
 *   `packages/contract/src/hitl/judge-decision.ts` for the one decision: the door's check of the
 *   answer and the runtime's own checks (the live gate) alike.
 * Coverage does not say who called whom, so calls from one file into another are not counted; every
 * such call is an invocation of a function of the callee's file, so the invocations of a file bound
 * the calls into it from above. Anything else the process runs in a window counts too (the service's
 * timers are set far apart so that none falls due).
 */
import {
  type Checkpoint,
  type Plugin,
  type ThreadRunStore,
  defineTool,
  trustedViewOf,
} from '@awaken/contract';
import { createMemoryStores } from '@awaken/store-memory';
import { createScriptedModel } from '@awaken/testing';
import { pino } from 'pino';
import { z } from 'zod';
import { createHttpApp, createMailboxService } from '../src/index';
import {
  type Coverage,
  CoverageWindow,
  type Tally,
  invocationsOf,
  tally,
} from './decision-path/coverage-window';
import { doors } from './decision-path/doors';

const hotCache = !process.argv.includes('--no-hot-cache');
const listFiles = process.argv.includes('--files') || process.argv.includes('--functions');
const listFunctions = process.argv.includes('--functions');
const JUDGE = ['packages/contract/src/hitl/judge-decision.ts', 'judgeDecision'] as const;
const AGENT = 'agent';

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
// every run: one call of `danger`, then an answer once its result is in
const model = createScriptedModel((request) =>
  request.messages.at(-1)?.role === 'tool'
    ? { text: 'ok' }
    : { toolCalls: [{ id: 'a', name: 'danger', arguments: {} }] },
);

const coverage = new CoverageWindow();
/** The first window of the running measurement, taken in the checkpoint that records the decision. */
let pathWindow: Promise<Coverage> | undefined;
let armed = false;

/** Observes `commitCheckpoint` on the store and on its trusted view, whichever the runtime calls. */
function observeCheckpoints(store: ThreadRunStore, seen: (checkpoint: Checkpoint) => void): void {
  for (const target of new Set([store, trustedViewOf(store)])) {
    const commit = target.commitCheckpoint.bind(target);
    target.commitCheckpoint = (checkpoint) => {
      seen(checkpoint);
      return commit(checkpoint);
    };
  }
}

const stores = createMemoryStores();
observeCheckpoints(stores.threadRuns, (checkpoint) => {
  if (armed && checkpoint.trigger === 'tool_results_committed' && pathWindow === undefined) {
    pathWindow = coverage.take();
  }
});

const service = createMailboxService({
  agents: [{ id: AGENT, model, tools: [danger], plugins: [approval] }],
  stores,
  concurrency: 1,
  // no lease heartbeat, sweep or idle wake-up falls due inside a window
  leaseMs: 600_000,
  idleWaitMs: 600_000,
  hotCacheSize: hotCache ? 16 : 0,
});
await service.start();
const TOKEN = 'decision-path-token-0123456789';
const { app } = createHttpApp({
  tenants: { acme: service },
  tokens: [{ token: TOKEN, tenant: 'acme' }],
  a2a: { agents: [{ id: AGENT }] },
  logger: pino({ level: 'silent' }),
});
const request = (path: string, body?: unknown, headers: Record<string, string> = {}) =>
  Promise.resolve(
    app.request(path, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json', ...headers },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    }),
  );

async function until(what: string, check: () => boolean | Promise<boolean>): Promise<void> {
  for (let tries = 0; !(await check()); tries += 1) {
    if (tries > 5_000) throw new Error(what);
    await new Promise((r) => setTimeout(r, 1));
  }
}
const statusOf = async (runId: string) => (await stores.threadRuns.getRun(runId))?.status;

interface Measured {
  door: string;
  path: Tally;
  judged: number;
}

await coverage.start();
const measured: Measured[] = [];
const waitingFor = (runId: string) =>
  until(`run ${runId} never waited for its approval`, async () => (await statusOf(runId)) === 'waiting');
for (const [index, door] of doors(request, AGENT, waitingFor).entries()) {
  const waiting = await door.ask(`decision-path-${index}`);
  await coverage.take(); // resets the counts
  pathWindow = undefined;
  armed = true;
  await waiting.answer();
  await until(
    `${door.name}: no tool_results_committed checkpoint after the decision`,
    () => pathWindow !== undefined,
  );
  await until(
    `${door.name}: the run did not finish after its approval`,
    async () => (await statusOf(waiting.runId)) === 'done',
  );
  armed = false;
  const first = await (pathWindow as unknown as Promise<Coverage>);
  const rest = await coverage.take();
  measured.push({
    door: door.name,
    path: tally(first),
    judged: invocationsOf(first, ...JUDGE) + invocationsOf(rest, ...JUDGE),
  });
}
await service.stop({ graceMs: 1_000 });
coverage.stop();

const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);
const filesOf = ({ ours }: Tally) => [...ours.values()].flatMap((files) => [...files.values()]);
console.log(
  `one decision per door → the tool_results_committed checkpoint that records it (${hotCache ? 'hot cache: resumed in place' : 'no hot cache: resume dispatch, restored from the checkpoint'})`,
);
console.log(
  `${'door'.padEnd(22)} ${'files'.padStart(5)} ${'packages'.padStart(8)} ${'functions'.padStart(9)} ${'invocations'.padStart(11)} ${'judgeDecision'.padStart(13)}`,
);
for (const { door, path, judged } of measured) {
  const files = filesOf(path);
  console.log(
    `${door.padEnd(22)} ${String(files.length).padStart(5)} ${String(path.ours.size).padStart(8)} ${String(sum(files.map((file) => file.functions.length))).padStart(9)} ${String(sum(files.map((file) => file.invocations))).padStart(11)} ${String(judged).padStart(13)}`,
  );
}
for (const { door, path } of measured) {
  console.log(`## ${door}`);
  for (const [folder, files] of [...path.ours.entries()].sort(([a], [b]) => a.localeCompare(b))) {
    const functions = sum([...files.values()].map((file) => file.functions.length));
    console.log(`${folder}/src: ${files.size} files, ${functions} functions`);
    if (!listFiles) continue;
    for (const [file, count] of [...files.entries()].sort(([a], [b]) => a.localeCompare(b))) {
      const names = listFunctions ? `  ${count.functions.join(', ')}` : '';
      console.log(
        `  ${file.padEnd(48)} ${String(count.functions.length).padStart(3)} fn ${String(count.invocations).padStart(5)} calls${names}`,
      );
    }
  }
  const dependencies = [...path.dependencies.entries()];
  console.log(
    `dependencies: ${sum(dependencies.map(([, dep]) => dep.files))} files, ${sum(dependencies.map(([, dep]) => dep.functions.length))} functions (${dependencies
      .sort(([, a], [, b]) => b.functions.length - a.functions.length)
      .map(([name, dep]) => `${name} ${dep.files}/${dep.functions.length}`)
      .join(', ')})`,
  );
}
process.exit(0);
