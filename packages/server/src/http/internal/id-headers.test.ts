import { describe, expect, it } from 'vitest';
import { idHeaders, sendableHeaders } from './id-headers';

describe('id headers', () => {
  it('percent-encodes ids, so any id can be written as a header', () => {
    expect(idHeaders({ threadId: '日本', runId: 'run-1' })).toEqual({
      'x-thread-id': '%E6%97%A5%E6%9C%AC',
      'x-run-id': 'run-1',
    });
  });

  it('sendableHeaders percent-encodes a value Node would refuse and names it', () => {
    // a control character: the Fetch API keeps it, Node's HTTP writer refuses it
    const response = new Response(null, { headers: { 'x-a': 'ok é', 'x-b': 'a\u0001b' } });
    expect(sendableHeaders(response)).toEqual(['x-b']);
    expect(response.headers.get('x-b')).toBe('a%01b');
    expect(response.headers.get('x-a')).toBe('ok é');
  });
});
