/**
 * Where the CPU of a useChat turn on Redis goes, in the server and in Redis:
 * `pnpm --filter @awaken/bench bench:chat-turn-profile-redis`.
 * The Awaken server over Redis (chat-turn/serve.ts `awaken-redis`) in its own process, this process
 * the client; after BENCH_WARMUP turns at concurrency BENCH_CONCURRENCY (default 200 at 8), the
 * server's V8 profiler runs over BENCH_REQUESTS turns (default 400) and nothing else (started and
 * stopped by SIGUSR2), while Redis logs every command's time (SLOWLOG at 0 µs). Prints: the server's
 * CPU µs per turn (process.cpuUsage over the window), Redis CPU µs per turn (INFO cpu), the read and
 * write system calls per turn of both processes (/proc/<pid>/io: counts, not times), INFO
 * commandstats µs and calls per turn, each script's µs per turn (by SHA1, with its first arguments
 * to tell it), and the top self-time entries of the profile. BENCH_PROFILE_OUT=<file> keeps the
 * .cpuprofile.
 */
import { copyFileSync, existsSync, mkdtempSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readFileSync } from 'node:fs';
import { startRedisServer } from '@awaken/testing';
import { Redis } from 'ioredis';
import { topSelfTime } from '../internal/cpu-profile';
import { commandTotals, redisCpuSeconds } from '../internal/redis-info';
import { startChildServer } from '../server-http/child-server';
import { load } from './chat-client';

const WARMUP = Number(process.env.BENCH_WARMUP ?? 200);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 400);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8);
const SERVE = fileURLToPath(new URL('./serve.ts', import.meta.url));
const PATH = '/v1/ai-sdk/agents/weather/chat';

/** read/write system calls of a process so far (/proc/<pid>/io; zeros where there is none). */
function syscalls(pid: number): { reads: number; writes: number } {
  try {
    const io = readFileSync(`/proc/${pid}/io`, 'utf8');
    const field = (name: string) => Number(new RegExp(`^${name}: (\\d+)`, 'm').exec(io)?.[1] ?? 0);
    return { reads: field('syscr'), writes: field('syscw') };
  } catch {
    return { reads: 0, writes: 0 };
  }
}

async function until(check: () => boolean): Promise<void> {
  for (let tries = 0; tries < 600 && !check(); tries += 1)
    await new Promise((resolve) => setTimeout(resolve, 50));
}

type SlowEntry = [number, number, number, string[]];

async function main(): Promise<void> {
  const redis = await startRedisServer();
  const admin = new Redis(redis.url);
  const dir = mkdtempSync(join(tmpdir(), 'awaken-chat-prof-'));
  const file = join(dir, 'server.cpuprofile');
  const server = await startChildServer(['awaken-redis', redis.url], {
    script: SERVE,
    env: { AWAKEN_BENCH_PROFILE: file },
  });
  try {
    const base = new URL(server.url);
    await load(base, PATH, CONCURRENCY, WARMUP);
    await admin.config('SET', 'slowlog-log-slower-than', '0');
    await admin.config('SET', 'slowlog-max-len', '200000');
    await admin.slowlog('RESET');
    const before = await commandTotals(admin);
    const cpuBefore = await redisCpuSeconds(admin);
    const redisPid = Number(/process_id:(\d+)/.exec(await admin.info('server'))?.[1] ?? 0);
    process.kill(server.pid, 'SIGUSR2');
    await new Promise((resolve) => setTimeout(resolve, 200));
    const serverCalls = syscalls(server.pid);
    const redisCalls = syscalls(redisPid);
    const began = performance.now();
    const { rps } = await load(base, PATH, CONCURRENCY, REQUESTS);
    const elapsed = performance.now() - began;
    const serverAfter = syscalls(server.pid);
    const redisAfter = syscalls(redisPid);
    process.kill(server.pid, 'SIGUSR2');
    const after = await commandTotals(admin);
    const cpuAfter = await redisCpuSeconds(admin);
    const slow = (await admin.call('SLOWLOG', 'GET', '-1')) as SlowEntry[];
    await admin.config('SET', 'slowlog-log-slower-than', '10000');
    await until(() => existsSync(`${file}.cpu.json`));
    const cpu = JSON.parse(readFileSync(`${file}.cpu.json`, 'utf8')) as { user: number; system: number };
    const per = (value: number) => (value / REQUESTS).toFixed(1);
    const out: string[] = [];
    out.push(
      `${REQUESTS} turns at concurrency ${CONCURRENCY} after ${WARMUP} warm-up turns: ${rps.toFixed(0)} req/s, ${elapsed.toFixed(0)} ms; load average ${loadavg()
        .map((value) => value.toFixed(2))
        .join(' / ')}`,
    );
    out.push(
      `server CPU per turn: ${per(cpu.user + cpu.system)} µs (user ${per(cpu.user)}, system ${per(cpu.system)}); Redis CPU per turn: ${per((cpuAfter - cpuBefore) * 1e6)} µs; commandstats µs per turn (client-issued): ${per(after.usec - before.usec)}`,
    );
    out.push(
      `system calls per turn (/proc/<pid>/io): server ${per(serverAfter.writes - serverCalls.writes)} writes, ${per(serverAfter.reads - serverCalls.reads)} reads; Redis ${per(redisAfter.writes - redisCalls.writes)} writes, ${per(redisAfter.reads - redisCalls.reads)} reads`,
    );
    const rows = [...after.byCommand]
      .map(([name, { calls, usec }]) => {
        const prior = before.byCommand.get(name) ?? { calls: 0, usec: 0 };
        return { name, calls: (calls - prior.calls) / REQUESTS, usec: (usec - prior.usec) / REQUESTS };
      })
      .filter((row) => row.calls >= 0.1 && row.name !== 'slowlog' && row.name !== 'config')
      .sort((a, b) => b.usec - a.usec);
    out.push('', '| command | calls per turn | µs per turn |', '|---|---:|---:|');
    for (const row of rows) out.push(`| ${row.name} | ${row.calls.toFixed(1)} | ${row.usec.toFixed(1)} |`);
    const scripts = new Map<string, { calls: number; usec: number; sample: string }>();
    for (const [, , usec, args] of slow) {
      const name = String(args[0]).toLowerCase();
      if (name !== 'evalsha' && name !== 'eval') continue;
      const sha = String(args[1]).slice(0, 10);
      const entry = scripts.get(sha) ?? {
        calls: 0,
        usec: 0,
        sample: args.slice(6, 10).join(' ').slice(0, 90),
      };
      entry.calls += 1;
      entry.usec += usec;
      scripts.set(sha, entry);
    }
    out.push(
      '',
      `Scripts (SLOWLOG at 0 µs, ${slow.length} entries):`,
      '',
      '| sha | calls per turn | µs per turn | µs per call | arguments 4.. |',
      '|---|---:|---:|---:|---|',
    );
    for (const [sha, entry] of [...scripts].sort((a, b) => b[1].usec - a[1].usec))
      out.push(
        `| ${sha} | ${(entry.calls / REQUESTS).toFixed(2)} | ${(entry.usec / REQUESTS).toFixed(1)} | ${(entry.usec / entry.calls).toFixed(1)} | \`${entry.sample.replaceAll('|', '\\|').replaceAll('`', "'")}\` |`,
      );
    out.push('', '| self time | function | where |', '|---:|---|---|');
    for (const { name, where, share } of topSelfTime(file, 40))
      out.push(`| ${(share * 100).toFixed(1)}% | \`${name}\` | ${where} |`);
    if (process.env.BENCH_PROFILE_OUT) copyFileSync(file, process.env.BENCH_PROFILE_OUT);
    process.stdout.write(`${out.join('\n')}\n`);
  } finally {
    await server.stop();
    admin.disconnect();
    await redis.stop();
  }
}

await main();
