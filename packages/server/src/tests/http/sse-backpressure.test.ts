import { type ChildProcess, fork } from 'node:child_process';
import { type Socket, connect } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

const ENTRY = fileURLToPath(new URL('../../../test-support/sse-memory-server.ts', import.meta.url));
const PACKAGE_DIR = fileURLToPath(new URL('../../..', import.meta.url));
const MiB = 1024 * 1024;

/** 8 MiB of events after the cursor: more than the kernel buffers of one loopback socket hold. */
const EVENTS = 8_192;
const EVENT_BYTES = 1_024;
const CLIENTS = 40;
/** The documented bound (README, "Event streams"): 40 stalled clients cost less than 64 MiB. */
const BOUND = 64 * MiB;

interface Ready {
  port: number;
  runId: string;
  afterSeq: number;
}

let child: ChildProcess;
let ready: Ready;
const sockets: Socket[] = [];

function request<T>(type: string): Promise<T> {
  return new Promise((resolve) => {
    const onMessage = (message: { type: string }) => {
      if (message.type !== type) return;
      child.off('message', onMessage);
      resolve(message as T);
    };
    child.on('message', onMessage);
    if (type !== 'ready') child.send({ type });
  });
}

/** Server memory after a full GC: RSS, and what JS holds (heap plus buffers outside it). */
async function memory(): Promise<{ rss: number; held: number }> {
  const { usage } = await request<{ usage: NodeJS.MemoryUsage }>('memory');
  return { rss: usage.rss, held: usage.heapUsed + usage.external };
}

/** Opens the run's event stream, waits for its first bytes, then never reads again. */
function stalledClient(): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(ready.port, '127.0.0.1', () => {
      socket.write(
        `GET /v1/runs/${ready.runId}/events?after=${ready.afterSeq} HTTP/1.1\r\nhost: localhost\r\n\r\n`,
      );
    });
    sockets.push(socket);
    socket.once('error', reject);
    socket.once('data', () => {
      socket.pause();
      resolve(socket);
    });
  });
}

beforeAll(async () => {
  child = fork(ENTRY, [JSON.stringify({ events: EVENTS, eventBytes: EVENT_BYTES })], {
    cwd: PACKAGE_DIR,
    execArgv: ['--import', 'tsx', '--expose-gc'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  ready = await request<Ready>('ready');
}, 30_000);

afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  if (child && child.exitCode === null) {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
  }
});

describe('SSE backpressure', () => {
  it('40 clients that never read an 8 MiB log cost the server less than 64 MiB (a page or two each, not the log)', async () => {
    const before = await memory();
    await Promise.all(Array.from({ length: CLIENTS }, () => stalledClient()));
    // let every stream fill its socket and settle: memory stops growing once each waits for a drain
    let after = await memory();
    let steady = 0;
    await vi
      .waitFor(
        async () => {
          const now = await memory();
          steady = Math.abs(now.held - after.held) < MiB ? steady + 1 : 0;
          after = now;
          expect(steady).toBeGreaterThanOrEqual(3);
        },
        { timeout: 5_000, interval: 250 },
      )
      .catch(() => undefined); // still growing after 5 s: the bound below judges what it holds
    const growth = { rss: after.rss - before.rss, held: after.held - before.held };
    console.info(
      `SSE backpressure: ${CLIENTS} stalled clients, ${(EVENTS * EVENT_BYTES) / MiB} MiB log: ` +
        `RSS +${(growth.rss / MiB).toFixed(1)} MiB, heap+external +${(growth.held / MiB).toFixed(1)} MiB`,
    );
    expect(growth.held).toBeLessThan(BOUND);
    expect(growth.rss).toBeLessThan(BOUND);
  }, 30_000);
});
