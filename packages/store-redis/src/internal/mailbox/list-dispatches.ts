import type { Page, RunDispatch, RunDispatchStatus } from '@awaken/contract';
import type { Redis } from 'ioredis';
import type { MailboxKeys } from '../keys/mailbox-keys';
import { pageIndex, pipelined } from '../paging/page-index';
import { decodeStoredDispatch } from './dispatch-codec';

/** Pages through the dispatches that have `status`, newest first (the status index, by enqueue seq). */
export function listDispatchesWithStatus(
  redis: Redis,
  key: MailboxKeys,
  query: { status: RunDispatchStatus; cursor?: string; limit?: number },
): Promise<Page<RunDispatch>> {
  return pageIndex<RunDispatch>({
    redis,
    key: key.withStatus(query.status),
    reverse: true,
    cursor: query.cursor,
    limit: query.limit,
    load: (ids) => loadDispatches(redis, key, ids),
    // the index and the record are written in one script; a record read after a later move is skipped
    accept: (dispatch) => dispatch.status === query.status,
  });
}

async function loadDispatches(redis: Redis, key: MailboxKeys, ids: string[]) {
  const rows = await pipelined<Record<string, string>>(redis, ids, (pipeline, id) =>
    pipeline.hgetall(key.dispatch(id)),
  );
  return rows.map((row, index) => decodeStoredDispatch(ids[index] as string, row) ?? undefined);
}

/** Pages through a thread's dispatches, oldest first (by enqueue seq), optionally by status. */
export function listThreadDispatches(
  redis: Redis,
  key: MailboxKeys,
  query: { threadId: string; cursor?: string; limit?: number; status?: RunDispatchStatus[] },
): Promise<Page<RunDispatch>> {
  const wanted = query.status === undefined ? undefined : new Set(query.status);
  return pageIndex<RunDispatch>({
    redis,
    key: key.threadDispatches(query.threadId),
    cursor: query.cursor,
    limit: query.limit,
    load: (ids) => loadDispatches(redis, key, ids),
    accept: wanted ? (dispatch) => wanted.has(dispatch.status) : undefined,
  });
}
