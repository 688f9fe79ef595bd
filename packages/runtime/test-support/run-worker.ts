/**
 * A separate Node process for the cross-process runtime tests, started by `forkRunWorker` with
 * `--import tsx`. argv[2] is a JSON `RunJob`. The worker builds the scenario's agent and a runtime
 * over Redis stores (threads/runs, event log, decision inbox), runs or resumes the run, reports the
 * result through `process.send` and exits. Nothing is kept in memory between processes.
 */
import { AwakenError, type DecisionReceipt } from '@awaken/contract';
import { createRedisStores } from '@awaken/store-redis';
import { createAgentRuntime } from '../src/create-agent-runtime';
import type { RunResult } from '../src/types';
import { scenarioAgent } from './redis-agents';
import type { RunJob } from './fork-run-worker';

async function main(job: RunJob): Promise<{ result: RunResult; receipts: DecisionReceipt[] }> {
  const stores = createRedisStores({ redis: job.url, prefix: job.prefix });
  try {
    const runtime = createAgentRuntime({
      agents: [scenarioAgent(stores.redis, stores.prefix, job.scenario, { slowMs: job.slowMs ?? 0 })],
      stores,
      ...(job.leaseMs ? { runLease: { leaseMs: job.leaseMs } } : {}),
    });
    const start = () =>
      job.action === 'run'
        ? runtime.run({
            agentId: 'agent',
            runId: job.runId,
            threadId: job.threadId,
            input: job.input ?? 'go',
            onSuspend: job.onSuspend ?? 'return',
          })
        : runtime.resumeRun(job.runId, {
            decisions: job.decisions ?? [],
            onSuspend: job.onSuspend ?? 'return',
          });
    const deadline = Date.now() + (job.retryBusyMs ?? 0);
    while (true) {
      const handle = start();
      try {
        const [result, receipts] = await Promise.all([handle.result, handle.receipts]);
        return { result, receipts };
      } catch (error) {
        if (!AwakenError.hasCode(error, 'run_busy') || Date.now() > deadline) throw error;
        await new Promise((resolve) => setTimeout(resolve, Math.min(100, error.retryAfterMs ?? 100)));
      }
    }
  } finally {
    await stores.close();
  }
}

main(JSON.parse(process.argv[2] ?? '{}') as RunJob)
  .then((result) => new Promise<void>((resolve) => process.send?.({ result }, () => resolve())))
  .catch((error: unknown) => {
    process.send?.({ error: String(error instanceof Error ? error.stack : error) });
    process.exitCode = 1;
  });
