import type { Page, RunDispatch, RunDispatchStatus } from '@awaken/contract';
import type { Redis } from 'ioredis';
import { decodeStoredDispatch } from './dispatch-codec';
import { DISPATCH_REPLY_FIELDS } from './dispatch-fields';
import { pageIndex, pipelined } from './page-index';

/** Pages through a thread's dispatches, oldest first (by enqueue seq), optionally by status. */
export function listThreadDispatches(
  redis: Redis,
  prefix: string,
  query: { threadId: string; cursor?: string; limit?: number; status?: RunDispatchStatus[] },
): Promise<Page<RunDispatch>> {
  const wanted = query.status === undefined ? undefined : new Set(query.status);
  return pageIndex<RunDispatch>({
    redis,
    key: `${prefix}ta:${query.threadId}`,
    cursor: query.cursor,
    limit: query.limit,
    async load(ids) {
      const rows = await pipelined<(string | null)[]>(redis, ids, (pipeline, id) =>
        pipeline.hmget(`${prefix}d:${id}`, ...DISPATCH_REPLY_FIELDS),
      );
      return rows.map((row) => decodeStoredDispatch(row) ?? undefined);
    },
    accept: wanted ? (dispatch) => wanted.has(dispatch.status) : undefined,
  });
}
