import type { Page, PageRequest } from '@awaken/contract';

/** The store's paging input of a `?cursor=&limit=` query: what the query leaves out stays out. */
export function pageRequestOf(query: {
  cursor?: string | undefined;
  limit?: number | undefined;
}): PageRequest {
  return {
    ...(query.cursor ? { cursor: query.cursor } : {}),
    ...(query.limit ? { limit: query.limit } : {}),
  };
}

/** A store page as the API answers it: each item as its view, `nextCursor` only when there is one. */
export function pageView<T, V>(page: Page<T>, view: (item: T) => V): Page<V> {
  return { items: page.items.map(view), ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) };
}

/** The store's input of a listing with `?status=a,b`: the page, and the statuses named. */
export function listRequestOf<S extends string>(query: {
  cursor?: string | undefined;
  limit?: number | undefined;
  status?: string | undefined;
}): PageRequest & { status?: S[] } {
  const { status, ...page } = query;
  return { ...pageRequestOf(page), ...(status ? { status: status.split(',') as S[] } : {}) };
}
