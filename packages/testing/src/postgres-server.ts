import { spawn, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type ServerProcessHandle,
  type ServerProcessOptions,
  freePort,
  type ServerKind,
  hasExited,
  serverProcess,
} from './server-process';

/** True while any process of the group `pgid` is alive. */
function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * A real `postgres` child process on a loopback port: `url` is `postgres://postgres@127.0.0.1:<port>/postgres`
 * (trust authentication on loopback); stopped with SIGINT (fast shutdown); `kill` takes its backends too.
 */
export type PostgresServerHandle = ServerProcessHandle;

export interface StartPostgresOptions extends ServerProcessOptions {
  /**
   * Keep every acknowledged commit through a crash of the server (kill): `synchronous_commit=on`.
   * Off by default (faster tests; a kill may lose the last commits). fsync stays off either way: the
   * operating system, which survives a killed server, holds what was written.
   */
  durable?: boolean;
  /** More server settings, each passed as `-c name=value` (e.g. `shared_preload_libraries`). */
  settings?: Record<string, string>;
}

const POSTGRES: ServerKind = {
  name: 'postgres',
  ready: 'ready to accept connections',
  readyWithinMs: 20_000,
  // fast shutdown
  stopSignal: 'SIGINT',
  /** SIGKILL to its process group (it runs detached), so the backends die with the postmaster. */
  async crash(child) {
    if (hasExited(child)) return;
    const done = new Promise((resolve) => child.once('exit', resolve));
    if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
    await done;
    // wait until no backend of the group holds the shared memory any more
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline && child.pid !== undefined && groupAlive(child.pid)) {
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  },
};

/** The folder holding `initdb` and `postgres`: PATH first, then Debian's /usr/lib/postgresql/<n>/bin. */
export function postgresBinDir(): string {
  const found = spawnSync('sh', ['-c', 'command -v initdb'], { encoding: 'utf8' }).stdout.trim();
  if (found) return found.slice(0, found.lastIndexOf('/'));
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root)
    ? readdirSync(root)
        .filter((name) => existsSync(join(root, name, 'bin', 'initdb')))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (versions[0] === undefined) {
    throw new Error(
      'PostgreSQL is not installed. Install it with `apt-get install -y postgresql` (Debian) — .ci/run does this.',
    );
  }
  return join(root, versions[0], 'bin');
}

/** postgres refuses to run as root: as root, run it as `nobody` (uid/gid 65534), owning its data dir. */
function runAs(): { uid?: number; gid?: number } {
  return process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : {};
}

function initdb(bin: string, dir: string): void {
  const result = spawnSync(
    join(bin, 'initdb'),
    ['-D', dir, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--locale=C', '--no-sync'],
    { encoding: 'utf8', ...runAs() },
  );
  if (result.status !== 0) throw new Error(`initdb failed:\n${result.stdout}\n${result.stderr}`);
}

/**
 * Starts `postgres` on a free loopback port: `initdb` into a fresh temp dir (trust auth, UTF8, C
 * locale, no fsync, asynchronous commit unless `durable` — a test server), unix sockets in the data dir. As root it runs as `nobody`.
 */
export async function startPostgresServer(options: StartPostgresOptions = {}): Promise<PostgresServerHandle> {
  const bin = postgresBinDir();
  const port = options.port ?? (await freePort());
  const fresh = options.dir === undefined;
  const dir = options.dir ?? mkdtempSync(join(tmpdir(), 'awaken-pg-'));
  const { uid, gid } = runAs();
  if (fresh) {
    if (uid !== undefined && gid !== undefined) chownSync(dir, uid, gid);
    initdb(bin, dir);
  }
  const args = ['-D', dir, '-p', String(port), '-k', dir, '-c', 'listen_addresses=127.0.0.1'];
  args.push('-c', 'fsync=off', '-c', `synchronous_commit=${options.durable ? 'on' : 'off'}`);
  args.push('-c', 'full_page_writes=off');
  args.push('-c', 'max_connections=300', '-c', 'shared_buffers=64MB');
  for (const [name, value] of Object.entries(options.settings ?? {})) args.push('-c', `${name}=${value}`);
  // its own process group, so a crash (kill) takes the backends with the postmaster
  const child = spawn(join(bin, 'postgres'), args, {
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
    ...runAs(),
  });
  return serverProcess(POSTGRES, child, {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    dir,
    ownsDir: fresh,
  });
}
