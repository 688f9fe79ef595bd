import { describe, expect, it } from 'vitest';
import { scopeOf } from './require-scope';

describe('the scope a route needs', () => {
  it('decide for decisions and approval links, read for GET, run for the rest', () => {
    expect(scopeOf('POST', '/v1/runs/r1/decision')).toBe('decide');
    expect(scopeOf('POST', '/v1/runs/r1/decisions')).toBe('decide');
    expect(scopeOf('POST', '/v1/threads/t1/decisions')).toBe('decide');
    expect(scopeOf('POST', '/v1/runs/r1/tickets/permission%3A1%3Aa/links')).toBe('decide');
    expect(scopeOf('GET', '/v1/runs/r1/decisions')).toBe('read');
    expect(scopeOf('GET', '/v1/threads/t1/messages')).toBe('read');
    expect(scopeOf('POST', '/v1/runs')).toBe('run');
    expect(scopeOf('POST', '/v1/runs/r1/cancel')).toBe('run');
    expect(scopeOf('POST', '/v1/ai-sdk/chat')).toBe('run');
    expect(scopeOf('DELETE', '/v1/threads/t1')).toBe('run');
  });
});
