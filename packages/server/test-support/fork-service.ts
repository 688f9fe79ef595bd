import { type ChildProcess, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { WorkerConfig } from './worker-config';

const ENTRY = fileURLToPath(new URL('./service-process.ts', import.meta.url));
/** The package directory: `--import tsx` resolves from the working directory. */
const PACKAGE_DIR = fileURLToPath(new URL('..', import.meta.url));

export interface ServiceProcess {
  workerId: string;
  child: ChildProcess;
  /** Failures the worker's service reported. */
  errors: Array<{ context: string; message: string }>;
  /** Settles with the exit signal or code once the process is gone. */
  exited: Promise<NodeJS.Signals | number | null>;
  /** SIGKILL, resolved once the process is gone. */
  kill(): Promise<void>;
  /** A graceful stop (the service drains, then the process exits). */
  stop(): Promise<void>;
}

/** Starts a worker process and resolves once its service claims work. */
export async function forkService(input: {
  url: string;
  prefix: string;
  workerId: string;
  config: WorkerConfig;
}): Promise<ServiceProcess> {
  const child = fork(ENTRY, [JSON.stringify(input)], {
    cwd: PACKAGE_DIR,
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const errors: ServiceProcess['errors'] = [];
  const exited = new Promise<NodeJS.Signals | number | null>((resolve) =>
    child.on('exit', (code, signal) => resolve(signal ?? code)),
  );
  await new Promise<void>((resolve, reject) => {
    child.on('message', (message: { type: string; context?: string; message?: string }) => {
      if (message.type === 'ready') resolve();
      if (message.type === 'error')
        errors.push({ context: message.context ?? '', message: message.message ?? '' });
    });
    child.on('error', reject);
    void exited.then((how) =>
      reject(new Error(`worker ${input.workerId} exited (${how}) before it was ready`)),
    );
  });
  return {
    workerId: input.workerId,
    child,
    errors,
    exited,
    async kill() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.send({ type: 'stop' });
      await exited;
    },
  };
}
