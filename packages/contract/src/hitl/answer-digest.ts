/** JSON with object keys sorted, so equal values read in another key order print the same. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map((item) => canonical(item ?? null)).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const members = Object.entries(value)
      .filter(([, item]) => item !== undefined)
      .sort(([left], [right]) => (left < right ? -1 : left > right ? 1 : 0))
      .map(([key, item]) => `${JSON.stringify(key)}:${canonical(item)}`);
    return `{${members.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/**
 * A short stable digest of a JSON value (cyrb53 of its canonical form, in base 36): equal values give
 * equal digests whatever their key order. Not a security hash: it tells answers apart. The value must
 * already be checked JSON (`findJsonIssue`), so its depth is bounded.
 */
export function answerDigest(value: unknown): string {
  const text = canonical(value);
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    h1 = Math.imul(h1 ^ code, 2654435761);
    h2 = Math.imul(h2 ^ code, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(36);
}

/** What an answer says, as its decision id digests it: the same answer twice gives the same id. */
export function answerContent(decision: { action: string; result?: unknown; reason?: string }) {
  return { action: decision.action, result: decision.result ?? null, reason: decision.reason ?? null };
}

/**
 * The decision id of an answer given through a door: `<channel>:<ticket>:<digest of the answer>`.
 * A re-sent answer gets the same id (applied once, then `duplicate`); a different answer for the same
 * ticket gets another, which the judge refuses as a second decision instead of passing it off as the
 * first one's duplicate.
 */
export function answerDecisionId(
  channel: string,
  ticketId: string,
  decision: { action: string; result?: unknown; reason?: string },
): string {
  return `${channel}:${ticketId}:${answerDigest(answerContent(decision))}`;
}
