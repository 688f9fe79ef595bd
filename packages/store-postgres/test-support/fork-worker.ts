import { type ChildProcess, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const WORKER = fileURLToPath(new URL('./store-worker.ts', import.meta.url));
/** The package directory: `--import tsx` resolves from the working directory. */
const PACKAGE_DIR = fileURLToPath(new URL('..', import.meta.url));

/** A store-worker.ts process and the first thing it reports. */
export interface ForkedWorker<T> {
  child: ChildProcess;
  report: Promise<T>;
}

/** Runs store-worker.ts in a separate Node process; `report` resolves with the first thing it sends. */
export function startWorker<T>(args: string[]): ForkedWorker<T> {
  const child = fork(WORKER, args, {
    cwd: PACKAGE_DIR,
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const report = new Promise<T>((resolve, reject) => {
    let settled = false;
    child.once('message', (message: { result?: T; error?: string }) => {
      settled = true;
      if (message.error !== undefined) reject(new Error(`worker failed: ${message.error}`));
      else resolve(message.result as T);
    });
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      if (!settled) reject(new Error(`worker exited (${code ?? signal}) before reporting`));
    });
  });
  return { child, report };
}

/** Runs store-worker.ts to completion and resolves with what it reports. */
export function forkWorker<T>(args: string[]): Promise<T> {
  return startWorker<T>(args).report;
}
