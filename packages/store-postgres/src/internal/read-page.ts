import { type Page, pageSize } from '@awaken/contract';

/** A row of a listing: the stored document and its position in the listing's order. */
export interface ListedRow {
  doc: string;
  pos: string;
}

/**
 * One page of a listing. `sql` ends in `LIMIT $n`, `$n` one past `params`: the page reads one row
 * more than the limit `pageSize` serves, so its cursor (the position of its last row) is given only
 * when more rows follow.
 */
export async function readPage<T>(
  read: (sql: string, params: unknown[]) => Promise<ListedRow[]>,
  sql: string,
  params: unknown[],
  requested: { limit?: number },
  parse: (doc: string) => T,
): Promise<Page<T>> {
  const limit = pageSize(requested.limit);
  const rows = await read(sql, [...params, limit + 1]);
  const items = rows.slice(0, limit).map((row) => parse(row.doc));
  return rows.length > limit ? { items, nextCursor: String(rows[limit - 1]?.pos) } : { items };
}
