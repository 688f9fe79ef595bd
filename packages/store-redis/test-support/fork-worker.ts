import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const WORKER = fileURLToPath(new URL('./store-worker.ts', import.meta.url));
/** The package directory: `--import tsx` resolves from the working directory. */
const PACKAGE_DIR = fileURLToPath(new URL('..', import.meta.url));

/** Runs store-worker.ts in a separate Node process and resolves with what it reports. */
export function forkWorker<T>(args: string[]): Promise<T> {
  return new Promise((resolve, reject) => {
    const child = fork(WORKER, args, {
      cwd: PACKAGE_DIR,
      execArgv: ['--import', 'tsx'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    let settled = false;
    child.on('message', (message: { result?: T; error?: string }) => {
      settled = true;
      if (message.error !== undefined) reject(new Error(`worker failed: ${message.error}`));
      else resolve(message.result as T);
    });
    child.on('error', reject);
    child.on('exit', (code) => {
      if (!settled) reject(new Error(`worker exited with code ${code} before reporting`));
    });
  });
}
