import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const SERVE = fileURLToPath(new URL('./serve.ts', import.meta.url));
const BENCH_DIR = fileURLToPath(new URL('../..', import.meta.url));

export interface ChildServer {
  url: string;
  /** The child's process id (to signal it, e.g. SIGUSR2 for chat-turn/serve.ts's profiler). */
  pid: number;
  stop(): Promise<void>;
}

/**
 * Starts `serve.ts <args>` (or `options.script`) in a child process and resolves with its loopback
 * URL; `options.nodeArgs` go to node (e.g. `--cpu-prof`).
 */
export async function startChildServer(
  args: string[],
  options: { script?: string; nodeArgs?: string[]; env?: Record<string, string> } = {},
): Promise<ChildServer> {
  const script = options.script ?? SERVE;
  const nodeArgs = options.nodeArgs ?? [];
  const child: ChildProcess = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', script, ...args], {
    cwd: BENCH_DIR,
    stdio: ['ignore', 'pipe', 'inherit'],
    ...(options.env ? { env: { ...process.env, ...options.env } } : {}),
  });
  const port = await new Promise<number>((resolve, reject) => {
    let buffer = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      const line = buffer.split('\n').find((entry) => entry.startsWith('{"port"'));
      if (line) resolve((JSON.parse(line) as { port: number }).port);
    });
    child.once('exit', (code) => reject(new Error(`bench server ${args[0]} exited (${code})`)));
  });
  // the exit, however it came (an exit code, or a signal: a child killed by SIGTERM without a handler
  // has no exitCode), observed once: stop() never waits for an `exit` already emitted
  const exited = new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  });
  let stopping: Promise<void> | undefined;
  return {
    url: `http://127.0.0.1:${port}`,
    pid: child.pid ?? 0,
    stop() {
      stopping ??= (async () => {
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 3000);
        await exited;
        clearTimeout(timer);
      })();
      return stopping;
    },
  };
}
