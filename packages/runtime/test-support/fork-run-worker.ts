import { type ChildProcess, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { DecisionReceipt, ToolCallDecision } from '@awaken/contract';
import type { OnSuspend, RunResult } from '../src/types';
import type { ScenarioName } from './redis-agents';

const WORKER = fileURLToPath(new URL('./run-worker.ts', import.meta.url));
/** The package directory: `--import tsx` resolves from the working directory. */
const PACKAGE_DIR = fileURLToPath(new URL('..', import.meta.url));

/** What one worker process does: start a run, or resume one (with decisions). */
export interface RunJob {
  url: string;
  prefix: string;
  scenario: ScenarioName;
  action: 'run' | 'resume';
  runId: string;
  threadId?: string;
  input?: string;
  decisions?: ToolCallDecision[];
  onSuspend?: OnSuspend;
  /** How long the crash scenario's `slow` tool sleeps. */
  slowMs?: number;
  /** The run lease of the worker's activations (default: the runtime's). */
  leaseMs?: number;
  /** A resume refused with `run_busy` is tried again until this many ms passed (a killed holder's lease lapses). */
  retryBusyMs?: number;
}

export interface WorkerReport {
  result: RunResult;
  receipts: DecisionReceipt[];
}

export interface RunWorker {
  child: ChildProcess;
  /** Settles with the worker's report; rejects when it fails or exits without reporting. */
  done: Promise<WorkerReport>;
  /** Settles with the exit signal (e.g. `SIGKILL`) or code once the process is gone. */
  exited: Promise<NodeJS.Signals | number | null>;
}

/** Runs `run-worker.ts` in a separate Node process (tsx) for one job. */
export function forkRunWorker(job: RunJob): RunWorker {
  const child = fork(WORKER, [JSON.stringify(job)], {
    cwd: PACKAGE_DIR,
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const exited = new Promise<NodeJS.Signals | number | null>((resolve) =>
    child.on('exit', (code, signal) => resolve(signal ?? code)),
  );
  const done = new Promise<WorkerReport>((resolve, reject) => {
    let settled = false;
    child.on('message', (message: { result?: WorkerReport; error?: string }) => {
      settled = true;
      if (message.error !== undefined) reject(new Error(`worker failed: ${message.error}`));
      else resolve(message.result as WorkerReport);
    });
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      if (!settled) reject(new Error(`worker exited (${signal ?? code}) before reporting`));
    });
  });
  done.catch(() => {});
  return { child, done, exited };
}

/** Runs one job to its report. */
export function runInWorker(job: RunJob): Promise<WorkerReport> {
  return forkRunWorker(job).done;
}
