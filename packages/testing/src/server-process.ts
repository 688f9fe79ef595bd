import type { ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';

/** A database server child process on a loopback port, for tests and benchmarks. */
export interface ServerProcessHandle {
  url: string;
  port: number;
  dir: string;
  /** Stops the server (its shutdown signal, then SIGKILL) and deletes its data directory unless `keepDir`. */
  stop(options?: { keepDir?: boolean }): Promise<void>;
  /** SIGKILL, as a crash: nothing is flushed and the data directory is kept (restart on it with `dir`). */
  kill(): Promise<void>;
}

/** Where a server process starts: a port (a free one by default) and a data directory to reuse. */
export interface ServerProcessOptions {
  port?: number;
  /** An existing data directory to start on (a restart); a fresh temp dir by default. */
  dir?: string;
}

/** Finds a free TCP port on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/**
 * Resolves once the server's output (stdout and stderr) says `ready`; throws with that output when
 * the process exits first or `timeoutMs` passes.
 */
export async function waitForReady(
  child: ChildProcess,
  server: { name: string; port: number; ready: string; timeoutMs: number },
): Promise<void> {
  const deadline = Date.now() + server.timeoutMs;
  let output = '';
  const collect = (chunk: Buffer) => {
    output += chunk.toString();
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  while (Date.now() < deadline) {
    if (output.includes(server.ready)) return;
    if (child.exitCode !== null)
      throw new Error(`${server.name} exited early on port ${server.port}:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`${server.name} did not become ready on port ${server.port}:\n${output}`);
}

/** True once the process exited or was killed by a signal. */
export function hasExited(child: ChildProcess): boolean {
  return child.exitCode !== null || child.signalCode !== null;
}

/** Sends `signal`, then SIGKILL after five seconds; resolves once the process exited. */
export async function stopProcess(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  if (hasExited(child)) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill(signal);
  const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
  await exited;
  clearTimeout(timer);
}
