import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A real `redis-server` child process on a loopback port, for tests and benchmarks. */
export interface RedisServerHandle {
  url: string;
  port: number;
  dir: string;
  /** Stops the server (SIGTERM, then SIGKILL) and, unless `keepDir`, deletes its data directory. */
  stop(options?: { keepDir?: boolean }): Promise<void>;
  /** SIGKILL, as a crash: nothing is flushed and the data directory is kept (restart on it). */
  kill(): Promise<void>;
}

export interface StartRedisOptions {
  port?: number;
  /** Data directory; a fresh temp dir by default. Reuse it to restart on the same AOF. */
  dir?: string;
  appendOnly?: boolean;
  appendFsync?: 'always' | 'everysec' | 'no';
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

function redisBinary(): string {
  const found = spawnSync('sh', ['-c', 'command -v redis-server || ls /usr/bin/redis-server 2>/dev/null'], {
    encoding: 'utf8',
  });
  const path = found.stdout.trim().split('\n')[0];
  if (!path) {
    throw new Error(
      'redis-server is not installed. Install it with `apt-get install -y redis-server` (Debian) — .ci/run does this.',
    );
  }
  return path;
}

async function waitForReady(child: ChildProcess, port: number): Promise<void> {
  const deadline = Date.now() + 10_000;
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  while (Date.now() < deadline) {
    if (output.includes('Ready to accept connections')) return;
    if (child.exitCode !== null) throw new Error(`redis-server exited early on port ${port}:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`redis-server did not become ready on port ${port}:\n${output}`);
}

/** Starts `redis-server` on a free loopback port with no persistence unless asked. */
export async function startRedisServer(options: StartRedisOptions = {}): Promise<RedisServerHandle> {
  const binary = redisBinary();
  const port = options.port ?? (await freePort());
  const dir = options.dir ?? mkdtempSync(join(tmpdir(), 'awaken-redis-'));
  const args = [
    '--port',
    String(port),
    '--bind',
    '127.0.0.1',
    '--dir',
    dir,
    '--save',
    '',
    '--protected-mode',
    'no',
  ];
  if (options.appendOnly)
    args.push('--appendonly', 'yes', '--appendfsync', options.appendFsync ?? 'everysec');
  else args.push('--appendonly', 'no');
  const child = spawn(binary, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  await waitForReady(child, port);
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    dir,
    async stop(stopOptions = {}) {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
        await exited;
        clearTimeout(timer);
      }
      if (!stopOptions.keepDir && options.dir === undefined) rmSync(dir, { recursive: true, force: true });
    },
    async kill() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      await exited;
    },
  };
}
