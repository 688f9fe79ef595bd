import { randomUUID } from 'node:crypto';

/** A unique id with a readable prefix, so tests never collide on a shared backend. */
export function uniqueId(prefix: string): string {
  return `${prefix}-${randomUUID()}`;
}
