/**
 * Replays a folder of run recordings (`GET /v1/runs/:id/recording`, `*.ndjson`) against the demo
 * agents as defined now, as a regression suite: prints one line per recording and the diff of each
 * that diverged, and exits 1 when any diverged or could not be replayed (0 when all matched).
 *
 *   pnpm --filter @awaken/app-server replay <folder> [--tools recorded|live]
 *
 * No model is ever called: every model turn comes from the recording (the agents' model throws if
 * called). `--tools live` executes the demo tools for real instead of answering them from the
 * recording, so a tool whose behaviour changed shows as a divergence.
 */
import { resolve } from 'node:path';
import type { ModelExecutor } from '@awaken/contract';
import { createAgentRuntime } from '@awaken/runtime';
import { createMemoryStores } from '@awaken/store-memory';
import { formatReplaySuite, replaySuitePassed, runReplaySuite } from '@awaken/testing';
import { createDemoAgents } from '../src/demo/demo-agents';

const noModel: ModelExecutor = {
  modelId: 'none',
  // biome-ignore lint/correctness/useYield: it throws before any part
  async *stream() {
    throw new Error('a replay must not call the model');
  },
};

function usage(message: string): never {
  process.stderr.write(`${message}\nusage: replay-recordings <folder> [--tools recorded|live]\n`);
  process.exit(2);
}

async function main(argv: string[]): Promise<void> {
  const folder = argv.find((arg, index) => !arg.startsWith('--') && argv[index - 1] !== '--tools');
  if (!folder) usage('no folder of recordings given');
  const toolsAt = argv.indexOf('--tools');
  const tools = toolsAt >= 0 ? argv[toolsAt + 1] : 'recorded';
  if (tools !== 'recorded' && tools !== 'live')
    usage(`--tools must be "recorded" or "live", not ${String(tools)}`);
  const agents = createDemoAgents({ model: noModel, deleted: [], sent: [] });
  // relative to where the command was typed: pnpm runs the script in apps/server and names that in INIT_CWD
  const entries = await runReplaySuite(resolve(process.env.INIT_CWD ?? process.cwd(), folder), {
    agents,
    createRuntime: createAgentRuntime,
    createStores: createMemoryStores,
    tools,
  });
  process.stdout.write(`${formatReplaySuite(entries)}\n`);
  process.exitCode = replaySuitePassed(entries) ? 0 : 1;
}

main(process.argv.slice(2)).catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(2);
});
