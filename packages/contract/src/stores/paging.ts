/** A page of results; pass `nextCursor` back to get the next page. Absent when there are no more. */
export interface Page<T> {
  items: T[];
  nextCursor?: string;
}

/**
 * Paging input. `limit` is an integer >= 1, 50 by default; more than 1000 is served as 1000.
 * `cursor` is a `nextCursor` the same listing returned; any other value (a negative or fractional
 * number, text) is rejected with `validation_failed`.
 */
export interface PageRequest {
  cursor?: string;
  limit?: number;
}
