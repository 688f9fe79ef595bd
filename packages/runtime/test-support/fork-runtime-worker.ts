import { type ChildProcess, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { DecisionReceipt, ToolCallDecision } from '@awaken/contract';
import type { OnSuspend, RunResult } from '../src/types';
import type { ScenarioName } from './redis-agents';

const WORKER = fileURLToPath(new URL('./runtime-worker.ts', import.meta.url));
/** The package directory: `--import tsx` resolves from the working directory. */
const PACKAGE_DIR = fileURLToPath(new URL('..', import.meta.url));

/** How a long-lived worker process is set up: one runtime over Redis stores on `prefix`. */
export interface RuntimeWorkerConfig {
  url: string;
  prefix: string;
  scenario: ScenarioName;
  slowMs?: number;
  leaseMs?: number;
  /**
   * `pauseThenDieAtRemove`: the first time the runtime removes commands it read from the control
   * inbox, the worker sets `<prefix>test:removing`, waits for `<prefix>test:go`, removes them and
   * kills itself with SIGKILL — a process dying right after its inbox drain.
   */
  hook?: 'pauseThenDieAtRemove';
}

/** One command for the worker's runtime. */
export type RuntimeCommand =
  | { op: 'run'; runId: string; threadId: string; input?: string; onSuspend?: OnSuspend }
  | { op: 'resume'; runId: string; decisions?: ToolCallDecision[]; onSuspend?: OnSuspend }
  | { op: 'cancel'; runId: string; reason: string }
  /** `runtime.decide(runId, decisions)`: its receipts (the `result` of the outcome is a stub). */
  | { op: 'decide'; runId: string; decisions: unknown[] };

/** What a command came to: the run's result, or the code of the AwakenError it failed with. */
export type RuntimeOutcome =
  | { ok: true; result: RunResult; receipts: DecisionReceipt[] }
  | { ok: false; code: string; message: string; reason?: string };

export interface RuntimeWorker {
  child: ChildProcess;
  /** Resolves once the worker's runtime is ready for commands. */
  ready: Promise<void>;
  call(command: RuntimeCommand): Promise<RuntimeOutcome>;
  /** Settles with the exit signal or code once the process is gone. */
  exited: Promise<NodeJS.Signals | number | null>;
  /** Kills the process (if it still runs) and waits for it to exit. */
  stop(): Promise<void>;
}

/**
 * Starts `runtime-worker.ts` in its own Node process (tsx). Commands go over IPC and can overlap, so
 * many trials run in two long-lived processes instead of hundreds of process starts.
 */
export function forkRuntimeWorker(config: RuntimeWorkerConfig): RuntimeWorker {
  const child = fork(WORKER, [JSON.stringify(config)], {
    cwd: PACKAGE_DIR,
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const pending = new Map<number, { resolve(outcome: RuntimeOutcome): void; reject(error: Error): void }>();
  let nextId = 0;
  const exited = new Promise<NodeJS.Signals | number | null>((resolve) =>
    child.on('exit', (code, signal) => {
      for (const waiter of pending.values()) waiter.reject(new Error(`worker exited (${signal ?? code})`));
      pending.clear();
      resolve(signal ?? code);
    }),
  );
  const ready = new Promise<void>((resolve, reject) => {
    child.on('message', (message: { ready?: true; id?: number; outcome?: RuntimeOutcome }) => {
      if (message.ready) resolve();
      if (message.id === undefined || !message.outcome) return;
      pending.get(message.id)?.resolve(message.outcome);
      pending.delete(message.id);
    });
    void exited.then((how) => reject(new Error(`worker exited (${how}) before it was ready`)));
  });
  ready.catch(() => {});
  return {
    child,
    ready,
    exited,
    call(command) {
      const id = nextId++;
      return new Promise<RuntimeOutcome>((resolve, reject) => {
        pending.set(id, { resolve, reject });
        child.send({ id, command });
      });
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
}
