import type { ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
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

/** What differs between the servers: how one says it is ready, how it stops and how it crashes. */
export interface ServerKind {
  name: string;
  /** The text of its output (stdout or stderr) that says it accepts connections. */
  ready: string;
  readyWithinMs: number;
  /** Its clean shutdown signal; SIGKILL follows after five seconds. */
  stopSignal: NodeJS.Signals;
  /** A crash, when SIGKILL to the process is not all it takes (default: SIGKILL, then its exit). */
  crash?(child: ChildProcess): Promise<void>;
}

/**
 * Waits until the spawned server's output says it is ready (throwing with that output when it exits
 * first or takes too long), then returns its handle. `stop` deletes `dir` when the server made it
 * (`ownsDir`) unless told to keep it.
 */
export async function serverProcess(
  kind: ServerKind,
  child: ChildProcess,
  at: { url: string; port: number; dir: string; ownsDir: boolean },
): Promise<ServerProcessHandle> {
  await waitForReady(kind, child, at.port);
  /** Sends `name` (then SIGKILL after `killAfterMs`, when given); resolves once the process exited. */
  const signal = async (name: NodeJS.Signals, killAfterMs?: number) => {
    if (hasExited(child)) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill(name);
    const timer =
      killAfterMs === undefined ? undefined : setTimeout(() => child.kill('SIGKILL'), killAfterMs);
    await exited;
    clearTimeout(timer);
  };
  return {
    url: at.url,
    port: at.port,
    dir: at.dir,
    async stop(options = {}) {
      await signal(kind.stopSignal, 5_000);
      if (!options.keepDir && at.ownsDir) rmSync(at.dir, { recursive: true, force: true });
    },
    kill: () => (kind.crash ? kind.crash(child) : signal('SIGKILL')),
  };
}

async function waitForReady(kind: ServerKind, child: ChildProcess, port: number): Promise<void> {
  const deadline = Date.now() + kind.readyWithinMs;
  let output = '';
  const collect = (chunk: Buffer) => {
    output += chunk.toString();
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  while (Date.now() < deadline) {
    if (output.includes(kind.ready)) return;
    if (child.exitCode !== null) throw new Error(`${kind.name} exited early on port ${port}:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`${kind.name} did not become ready on port ${port}:\n${output}`);
}

/** True once the process exited or was killed by a signal. */
export function hasExited(child: ChildProcess): boolean {
  return child.exitCode !== null || child.signalCode !== null;
}
