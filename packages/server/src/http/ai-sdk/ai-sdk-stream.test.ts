import type { AgentEvent } from '@awaken/contract';
import { describe, expect, it } from 'vitest';
import type { MailboxService } from '../../types';
import { replayRun } from './ai-sdk-stream';

/** A service whose log holds `types` (seq 1..n); `follow` records where it was asked to start. */
function serviceWith(types: string[]) {
  const log = types.map((type, index) => ({ type, seq: index + 1 }) as unknown as AgentEvent);
  const reads: Array<{ afterSeq?: number; limit?: number }> = [];
  const follows: number[] = [];
  const service = {
    stores: {
      eventLog: {
        async read(_runId: string, query: { afterSeq?: number; limit?: number } = {}) {
          reads.push(query);
          const after = log.filter((event) => event.seq > (query.afterSeq ?? 0));
          return query.limit === undefined ? after : after.slice(0, query.limit);
        },
      },
    },
    follow(_runId: string, options: { afterSeq?: number }) {
      follows.push(options.afterSeq ?? 0);
      return (async function* () {})();
    },
  } as unknown as MailboxService;
  return { service, reads, follows };
}

async function collect(stream: AsyncIterable<AgentEvent>): Promise<number[]> {
  const seqs: number[] = [];
  for await (const event of stream) seqs.push(event.seq);
  return seqs;
}

describe('replayRun', () => {
  it('replays a long run page by page (never the whole log in one read) and follows nothing once it ended', async () => {
    const types = ['run_start', ...Array.from({ length: 598 }, () => 'text_delta'), 'run_finish'];
    const { service, reads, follows } = serviceWith(types);
    expect(await collect(replayRun(service, 'run-1'))).toEqual(types.map((_, index) => index + 1));
    expect(reads.every((query) => query.limit !== undefined && query.limit <= 256)).toBe(true);
    expect(reads.length).toBe(3);
    expect(follows).toEqual([]);
  });

  it('follows the live activation after the last page when it has not finished', async () => {
    const types = [
      'run_start',
      'run_finish',
      'run_start',
      ...Array.from({ length: 300 }, () => 'text_delta'),
    ];
    const { service, follows } = serviceWith(types);
    expect((await collect(replayRun(service, 'run-1'))).length).toBe(types.length);
    expect(follows).toEqual([types.length]);
  });
});
