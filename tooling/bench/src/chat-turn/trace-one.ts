/**
 * The Redis commands of ONE useChat turn, in order: `pnpm --filter @awaken/bench bench:chat-turn-trace`.
 * Starts Redis and the Awaken chat server over Redis stores (see serve.ts), warms up with five
 * turns, then records one turn with MONITOR and prints each command the server sent (`EVALSHA`
 * lines are script calls; the commands each script ran follow as `lua` lines). Reading the list
 * top to bottom shows where a turn's round trips go (tooling/bench/results/chat-turn-changes.md).
 */
import { fileURLToPath } from 'node:url';
import { startRedisServer } from '@awaken/testing';
import { Redis } from 'ioredis';
import { startChildServer } from '../server-http/child-server';
import { chatTurn } from './chat-client';

const SERVE = fileURLToPath(new URL('./serve.ts', import.meta.url));
const PATH = '/v1/ai-sdk/agents/weather/chat';
const short = (word: string) => (word.length > 60 ? `${word.slice(0, 60)}…` : word);

const redis = await startRedisServer();
const server = await startChildServer(['awaken-redis', redis.url], { script: SERVE });
const monitorClient = new Redis(redis.url);
try {
  const base = new URL(server.url);
  for (let index = 0; index < 5; index += 1) await chatTurn(base, PATH);
  const lines: string[] = [];
  const monitor = await monitorClient.monitor();
  monitor.on('monitor', (_time: string, args: string[], source: string) => {
    lines.push(`${source === 'lua' ? '    lua' : 'client'} ${args.map(short).join(' ')}`);
  });
  // MONITOR is on once its first reply arrived: a PING through another connection shows it
  const ping = new Redis(redis.url);
  await ping.ping();
  ping.disconnect();
  lines.length = 0;
  await chatTurn(base, PATH);
  // the stream ends before the server's last writes (release, ack): wait for the ack's script
  const settled = Date.now() + 2000;
  while (Date.now() < settled && !lines.some((line) => line.includes(' acked '))) {
    await new Promise((resolve) => setImmediate(resolve));
  }
  monitor.disconnect();
  process.stdout.write(`${lines.join('\n')}\n`);
  const calls = lines.filter((line) => line.startsWith('client')).length;
  process.stdout.write(`\n${calls} client-issued commands (pipelined reads count one each)\n`);
} finally {
  monitorClient.disconnect();
  await server.stop();
  await redis.stop();
}
