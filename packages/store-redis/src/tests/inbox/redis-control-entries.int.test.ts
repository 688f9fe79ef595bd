import { decisionControl } from '@awaken/contract';
import { describe, expect, inject, it } from 'vitest';
import { runKeys } from '../../internal/keys/run-keys';
import { RedisRunControlInbox } from '../../redis-run-control-inbox';
import { deleteKeys, uniquePrefix } from '../../../test-support/redis-harness';

const decision = (decisionId: string, toolCallId: string) =>
  decisionControl({ decisionId, toolCallId, action: 'resume', result: { note: 'ok' }, updatedAt: 1 });

describe('RedisRunControlInbox entries', () => {
  it('never decodes a stored entry: one that Lua cjson cannot decode still answers duplicate, is removed whole and frees its call', async () => {
    const inbox = new RedisRunControlInbox({ redis: inject('redisUrl'), prefix: uniquePrefix('entries') });
    try {
      expect(await inbox.put('r', decision('d1', 'c'))).toBe('stored');
      // What JSON.stringify writes for a lone surrogate, and Lua's cjson refuses to decode.
      const entries = runKeys(inbox.prefix, 'r').controlEntries;
      const stored = await inbox.redis.hget(entries, 'd1');
      await inbox.redis.hset(entries, 'd1', (stored ?? '').replace('"ok"', '"\\udc4d ok"'));

      expect(await inbox.put('r', decision('d1', 'c'))).toBe('duplicate');
      await inbox.remove('r', ['d1']);
      expect(await inbox.peek('r')).toEqual([]);
      expect(await inbox.put('r', decision('d2', 'c'))).toBe('stored');
      expect((await inbox.peek('r')).map((control) => control.id)).toEqual(['d2']);
    } finally {
      await deleteKeys(inbox.redis, inbox.prefix);
      await inbox.close();
    }
  });
});
