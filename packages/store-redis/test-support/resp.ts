/**
 * Just enough RESP2 parsing for the test proxy: where one complete value ends in a buffer, and the
 * words of a command (an array of bulk strings). Tests only.
 */

/** The offset just past the complete RESP value starting at `start`, or -1 when it is incomplete. */
export function respEnd(buffer: Buffer, start: number): number {
  if (start >= buffer.length) return -1;
  const lineEnd = buffer.indexOf('\r\n', start);
  if (lineEnd < 0) return -1;
  const next = lineEnd + 2;
  const type = String.fromCharCode(buffer[start] ?? 0);
  switch (type) {
    case '+':
    case '-':
    case ':':
      return next;
    case '$': {
      const length = Number(buffer.toString('latin1', start + 1, lineEnd));
      if (length < 0) return next;
      const end = next + length + 2;
      return end <= buffer.length ? end : -1;
    }
    case '*': {
      const count = Number(buffer.toString('latin1', start + 1, lineEnd));
      let position = next;
      for (let index = 0; index < count; index += 1) {
        position = respEnd(buffer, position);
        if (position < 0) return -1;
      }
      return position;
    }
    default:
      throw new Error(`not RESP: ${JSON.stringify(buffer.toString('latin1', start, start + 20))}`);
  }
}

/** The words of a complete command (`*n` of `$` bulk strings) in `buffer[start, end)`. */
export function commandWords(buffer: Buffer, start: number, end: number): string[] {
  const words: string[] = [];
  const lineEnd = buffer.indexOf('\r\n', start);
  const count = Number(buffer.toString('latin1', start + 1, lineEnd));
  let position = lineEnd + 2;
  for (let index = 0; index < count && position < end; index += 1) {
    const headerEnd = buffer.indexOf('\r\n', position);
    const length = Number(buffer.toString('latin1', position + 1, headerEnd));
    words.push(buffer.toString('utf8', headerEnd + 2, headerEnd + 2 + length));
    position = headerEnd + 2 + length + 2;
  }
  return words;
}
