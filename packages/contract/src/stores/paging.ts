/** A page of results; pass `nextCursor` back to get the next page. Absent when there are no more. */
export interface Page<T> {
  items: T[];
  nextCursor?: string;
}

/** Paging input. `limit` defaults to 50 and is capped by each store at 1000. */
export interface PageRequest {
  cursor?: string;
  limit?: number;
}
