/**
 * A long-lived Node process for the cross-process ownership tests, started by `forkRuntimeWorker`
 * with `--import tsx`. argv[2] is a JSON `RuntimeWorkerConfig`. It builds one runtime over Redis
 * stores (threads/runs, event log, control inbox) and answers `RuntimeCommand`s sent over IPC, each
 * with its `RuntimeOutcome`, until it is killed.
 */
import { AwakenError, type DecisionReceipt, type RunControlInbox } from '@awaken/contract';
import { createRedisStores } from '@awaken/store-redis';
import { createAgentRuntime } from '../src/create-agent-runtime';
import type { RunHandle, RunResult } from '../src/types';
import type { RuntimeCommand, RuntimeOutcome, RuntimeWorkerConfig } from './fork-runtime-worker';
import { scenarioAgent } from './redis-agents';

const config = JSON.parse(process.argv[2] ?? '{}') as RuntimeWorkerConfig;
const stores = createRedisStores({ redis: config.url, prefix: config.prefix });

/** The control inbox, with the configured hook around its first `remove`. */
function controlInbox(): RunControlInbox {
  const inbox = stores.inbox;
  if (config.hook !== 'pauseThenDieAtRemove') return inbox;
  let hooked = false;
  return {
    put: (runId, control) => inbox.put(runId, control),
    peek: (runId) => inbox.peek(runId),
    subscribe: (runId, listener) => inbox.subscribe(runId, listener),
    async remove(runId, ids) {
      if (hooked) return inbox.remove(runId, ids);
      hooked = true;
      await stores.redis.set(`${stores.prefix}test:removing`, ids.join(','));
      while ((await stores.redis.get(`${stores.prefix}test:go`)) === null) {
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      await inbox.remove(runId, ids);
      process.kill(process.pid, 'SIGKILL');
      await new Promise(() => {});
    },
  };
}

const runtime = createAgentRuntime({
  agents: [scenarioAgent(stores.redis, stores.prefix, config.scenario, { slowMs: config.slowMs ?? 0 })],
  stores: { threadRuns: stores.threadRuns, eventLog: stores.eventLog, inbox: controlInbox() },
  ...(config.leaseMs ? { runLease: { leaseMs: config.leaseMs } } : {}),
});

async function settle(handle: RunHandle): Promise<RuntimeOutcome> {
  const [result, receipts] = await Promise.all([handle.result, handle.receipts]);
  return { ok: true, result, receipts };
}

async function execute(command: RuntimeCommand): Promise<RuntimeOutcome> {
  try {
    switch (command.op) {
      case 'run':
        return await settle(
          runtime.run({
            agentId: 'agent',
            runId: command.runId,
            threadId: command.threadId,
            input: command.input ?? 'go',
            onSuspend: command.onSuspend ?? 'return',
          }),
        );
      case 'resume':
        return await settle(
          runtime.resumeRun(command.runId, {
            decisions: command.decisions ?? [],
            onSuspend: command.onSuspend ?? 'return',
          }),
        );
      case 'cancel': {
        const result = await runtime.cancelRun(command.runId, command.reason);
        return { ok: true, result, receipts: [] as DecisionReceipt[] };
      }
      case 'decide': {
        const decided = await runtime.decide(command.runId, command.decisions as never);
        const stub = { runId: command.runId, status: decided.delivery } as unknown as RunResult;
        return { ok: true, result: stub, receipts: decided.receipts };
      }
      default: {
        const exhaustive: never = command;
        throw new Error(`unknown command ${JSON.stringify(exhaustive)}`);
      }
    }
  } catch (error) {
    const failure = AwakenError.isInstance(error) ? error : new AwakenError('internal', String(error));
    const reason = failure.details?.reason;
    return {
      ok: false,
      code: failure.code,
      message: failure.message,
      ...(typeof reason === 'string' ? { reason } : {}),
    };
  }
}

process.on('message', (message: { id: number; command: RuntimeCommand }) => {
  void execute(message.command).then((outcome) => process.send?.({ id: message.id, outcome }));
});
process.send?.({ ready: true });
// the test process went away: do not linger
process.on('disconnect', () => process.exit(0));
