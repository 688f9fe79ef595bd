import { createHash } from 'node:crypto';

/**
 * The SHA1 of the script that a command (its words, as the test proxy sees them) runs: EVALSHA names
 * it, EVAL carries its source (a connection's first call of each script is an EVAL, see
 * `script-loading.ts`). Undefined for any other command. Tests only.
 */
export function scriptSha(words: string[]): string | undefined {
  const name = (words[0] ?? '').toLowerCase();
  if (name === 'evalsha') return words[1];
  if (name === 'eval')
    return createHash('sha1')
      .update(words[1] ?? '')
      .digest('hex');
  return undefined;
}
