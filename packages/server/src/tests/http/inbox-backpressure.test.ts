import { type ChildProcess, fork } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { type Socket, connect } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ENTRY = fileURLToPath(new URL('../../../test-support/inbox-load-server.ts', import.meta.url));
const PACKAGE_DIR = fileURLToPath(new URL('../../..', import.meta.url));
const MiB = 1024 * 1024;

/** The attack's load: 1,000 waiting runs, each a call with a 250-character argument. */
const RUNS = 1_000;
const ARGUMENT_CHARS = 250;
const CLIENTS = 40;
/** Runs made to wait while the clients stall: the inbox changes under them. */
const MORE_RUNS = 200;
/**
 * The documented bound (README, "Event streams"): 40 stalled inbox clients add less than 160 MiB to
 * the server's peak RSS — each holds one frame of at most about 64 KiB; the rest is the garbage of
 * the re-reads of the clients whose socket buffers still take frames, which the GC's sawtooth shows
 * (+20–50 MiB in runs alone, up to ~140 MiB with the whole suite on a loaded 2-core machine). Before
 * the inbox stream paged and stopped reading for a client that does not read, RSS grew by about
 * 100 MiB a second (+493 MiB in this test's window, 1.1 GiB after 10 s).
 */
const BOUND = 160 * MiB;
/** `/health/live` answers within this while the clients stall (on a 2-core CI machine shared by others). */
const HEALTH_MS = 3_000;
/** How long the stalled clients are watched on an unchanged inbox. */
const WATCH_MS = 4_000;

interface Ready {
  port: number;
  pid: number;
}

let child: ChildProcess;
let ready: Ready;
const sockets: Socket[] = [];

function message<T>(type: string, send?: object): Promise<T> {
  return new Promise((resolve, reject) => {
    const onExit = (code: number | null) => reject(new Error(`the server exited (${code})`));
    const onMessage = (received: { type: string }) => {
      if (received.type !== type) return;
      child.off('message', onMessage);
      child.off('exit', onExit);
      resolve(received as T);
    };
    child.on('message', onMessage);
    child.once('exit', onExit);
    if (send) child.send(send);
  });
}

/** The server's resident set, read from outside: `VmRSS` of `/proc/<pid>/status`, in bytes. */
function rss(): number {
  const status = readFileSync(`/proc/${ready.pid}/status`, 'utf8');
  const kib = /^VmRSS:\s+(\d+) kB$/m.exec(status)?.[1];
  if (kib === undefined) throw new Error('no VmRSS in /proc status');
  return Number(kib) * 1024;
}

/** How long `/health/live` takes to answer 200. */
async function healthMs(): Promise<number> {
  const started = performance.now();
  const response = await fetch(`http://127.0.0.1:${ready.port}/health/live`, {
    signal: AbortSignal.timeout(HEALTH_MS * 5),
  });
  await response.arrayBuffer();
  expect(response.status).toBe(200);
  return performance.now() - started;
}

/** Opens the inbox stream with the largest page, waits for its first bytes, then never reads again. */
function stalledClient(): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(ready.port, '127.0.0.1', () => {
      socket.write('GET /v1/inbox/events?limit=1000 HTTP/1.1\r\nhost: localhost\r\n\r\n');
    });
    sockets.push(socket);
    socket.once('error', reject);
    socket.once('data', (data) => {
      socket.pause();
      if (!data.toString('latin1').startsWith('HTTP/1.1 200')) reject(new Error('not a 200 stream'));
      else resolve(socket);
    });
  });
}

/** Samples RSS every 50 ms and `/health/live` back to back until `until` settles. */
async function watch(until: Promise<unknown>) {
  let settled = false;
  void until.finally(() => {
    settled = true;
  });
  let peak = rss();
  const sampler = setInterval(() => {
    peak = Math.max(peak, rss());
  }, 50);
  const health: number[] = [];
  try {
    while (!settled) {
      health.push(await healthMs());
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await until;
  } finally {
    clearInterval(sampler);
  }
  return { peak: Math.max(peak, rss()), health };
}

beforeAll(async () => {
  child = fork(ENTRY, [JSON.stringify({ runs: RUNS, argumentChars: ARGUMENT_CHARS })], {
    cwd: PACKAGE_DIR,
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  ready = await message<Ready>('ready');
}, 120_000);

afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  if (child && child.exitCode === null) {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
  }
});

describe('inbox stream backpressure', () => {
  it(`${CLIENTS} clients that never read a ${RUNS}-run inbox (limit=1000) add less than 96 MiB to the server's RSS, and health answers`, async () => {
    await healthMs();
    const before = rss();
    await Promise.all(Array.from({ length: CLIENTS }, () => stalledClient()));
    // an unchanged inbox under stalled readers, then one that changes under them
    const still = await watch(new Promise((resolve) => setTimeout(resolve, WATCH_MS)));
    const changing = await watch(message('more-done', { type: 'more', runs: MORE_RUNS }));
    const peak = Math.max(still.peak, changing.peak);
    const health = [...still.health, ...changing.health];
    console.info(
      `inbox backpressure: ${CLIENTS} stalled clients, ${RUNS}+${MORE_RUNS} waiting runs: RSS ` +
        `${(before / MiB).toFixed(0)} MiB -> peak ${(peak / MiB).toFixed(0)} MiB ` +
        `(+${((peak - before) / MiB).toFixed(1)} MiB); /health/live ${health.length} checks, ` +
        `slowest ${Math.max(...health).toFixed(0)} ms`,
    );
    expect(peak - before).toBeLessThan(BOUND);
    expect(Math.max(...health)).toBeLessThan(HEALTH_MS);
    expect(changing.health.length).toBeGreaterThan(0);
  }, 120_000);
});
