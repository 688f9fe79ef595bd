/**
 * The producer's own rate, in a process of its own like the servers: a mailbox service on memory
 * stores following live runs of `stream:<events>` in process, without HTTP. Prints the rates (events
 * per second, one per measured round) as JSON. argv: events, rounds.
 */
import { createMailboxService } from '@awaken/server';
import { streamModel } from './stream-model';

const events = Number(process.argv[2] ?? 2000);
const rounds = Number(process.argv[3] ?? 7);
const service = createMailboxService({ agents: [{ id: 'stream', model: streamModel }], concurrency: 1 });
await service.start();
const rates: number[] = [];
for (let round = 0; round < rounds + 2; round += 1) {
  const start = performance.now();
  const run = await service.submit({ agentId: 'stream', input: `stream:${events}` });
  let count = 0;
  for await (const _event of run.events()) count += 1;
  if (round >= 2) rates.push(count / ((performance.now() - start) / 1000));
}
await service.stop({ graceMs: 0 });
process.stdout.write(`${JSON.stringify(rates)}\n`);
process.exit(0);
