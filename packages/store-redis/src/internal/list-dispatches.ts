import type { Page, PageRequest, RunDispatch, RunDispatchStatus } from '@awaken/contract';
import type { Redis } from 'ioredis';
import { decodeDispatch } from './dispatch-codec';
import { pageIndex, pipelined } from './page-index';

/** Pages through a thread's dispatches, oldest first (by enqueue seq), optionally by status. */
export function listThreadDispatches(
  redis: Redis,
  prefix: string,
  threadId: string,
  query: PageRequest & { status?: RunDispatchStatus[] },
): Promise<Page<RunDispatch>> {
  const wanted = query.status && query.status.length > 0 ? new Set(query.status) : undefined;
  return pageIndex<RunDispatch>({
    redis,
    key: `${prefix}t:${threadId}:a`,
    cursor: query.cursor,
    limit: query.limit,
    async load(ids) {
      const hashes = await pipelined<Record<string, string>>(redis, ids, (pipeline, id) =>
        pipeline.hgetall(`${prefix}d:${id}`),
      );
      return hashes.map((hash) =>
        Object.keys(hash).length === 0 ? undefined : decodeDispatch(Object.entries(hash).flat()),
      );
    },
    accept: wanted ? (dispatch) => wanted.has(dispatch.status) : undefined,
  });
}
