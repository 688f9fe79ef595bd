import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type ServerProcessHandle,
  type ServerProcessOptions,
  freePort,
  type ServerKind,
  serverProcess,
} from './server-process';

/** A real `redis-server` child process on a loopback port (stopped with SIGTERM). */
export type RedisServerHandle = ServerProcessHandle;

export interface StartRedisOptions extends ServerProcessOptions {
  appendOnly?: boolean;
  appendFsync?: 'always' | 'everysec' | 'no';
  /** More `redis-server` arguments, appended as given (e.g. `--cluster-enabled yes`). */
  extraArgs?: readonly string[];
}

const REDIS: ServerKind = {
  name: 'redis-server',
  ready: 'Ready to accept connections',
  readyWithinMs: 10_000,
  stopSignal: 'SIGTERM',
};

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
  if (options.extraArgs) args.push(...options.extraArgs);
  const child = spawn(binary, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  return serverProcess(REDIS, child, {
    url: `redis://127.0.0.1:${port}`,
    port,
    dir,
    ownsDir: options.dir === undefined,
  });
}
