import { createHash } from 'node:crypto';

/** JSON with object keys sorted: equal values print the same whatever their key order. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map((item) => canonical(item ?? null)).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const members = Object.keys(value)
      .filter((key) => (value as Record<string, unknown>)[key] !== undefined)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonical((value as Record<string, unknown>)[key])}`);
    return `{${members.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/**
 * The decision id of an answer to a ticket: the ticket plus a digest of the answer as the client
 * sent it. The same answer sent again gives the same id (applied once, then `duplicate`); another
 * answer to the same ticket gives another id, which the judge refuses as a second decision.
 */
export function decisionIdOf(ticketId: string, answer: unknown): string {
  const digest = createHash('sha256').update(canonical(answer)).digest('base64url').slice(0, 22);
  return `ag-ui:${ticketId}:${digest}`;
}
