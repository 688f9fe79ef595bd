import { randomUUID } from 'node:crypto';
import { startRedisServer } from '@awaken/testing';
import { Redis } from 'ioredis';
import { MAILBOX_SCRIPTS as S } from './internal/mailbox-lua/index';
import { newRequestId } from './internal/idempotent-script';

const N = Number(process.env.N ?? 20000);
const server = await startRedisServer();
const redis = new Redis(server.url);

async function round(record: boolean, prefix: string): Promise<number> {
  const call = (script: (typeof S)[keyof typeof S], args: (string | number)[]) =>
    script.run(redis, [], [prefix, record ? newRequestId() : '', 120000, ...args]);
  const started = performance.now();
  const CONC = 50;
  await Promise.all(
    Array.from({ length: CONC }, async (_, w) => {
      for (let i = w; i < N; i += CONC) {
        await call(S.enqueue, [`d${i}`, `t${i}`, `r${i}`, 128, '', '', 3]);
        const [claimed] = (await call(S.claim, ['w', 1, 30000, randomUUID()])) as unknown[][];
        if (claimed) await call(S.ack, [String(claimed[0]), String(claimed[12])]);
      }
    }),
  );
  return N / ((performance.now() - started) / 1000);
}

const results: Record<string, number[]> = { record: [], plain: [] };
for (let r = 0; r < 6; r += 1) {
  for (const mode of r % 2 === 0 ? ['record', 'plain'] : ['plain', 'record']) {
    await redis.flushall();
    results[mode]?.push(await round(mode === 'record', `b${r}${mode}:`));
  }
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
console.log(
  JSON.stringify({ record: results.record?.map(Math.round), plain: results.plain?.map(Math.round) }),
);
console.log(
  'median cycles/s record',
  Math.round(median(results.record ?? [])),
  'plain',
  Math.round(median(results.plain ?? [])),
);
redis.disconnect();
await server.stop();
