import { Redis } from 'ioredis';

/** Kills the redis-server at `url` like a crash would (SIGKILL: no shutdown, no final AOF flush). */
export async function crashRedis(url: string): Promise<void> {
  const client = new Redis(url);
  const info = await client.info('server');
  client.disconnect();
  const pid = Number(/process_id:(\d+)/.exec(info)?.[1]);
  process.kill(pid, 'SIGKILL');
  for (let attempt = 0; attempt < 200; attempt += 1) {
    try {
      process.kill(pid, 0);
    } catch {
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`redis-server ${pid} survived SIGKILL`);
}
