import { describe, expect, it } from 'vitest';
import { clientIdIssue, clientIdSchema } from './client-id';

describe('the client id grammar', () => {
  it.each([
    ['a\nb', 'must not contain control characters'],
    ['a\0b', 'must not contain control characters'],
    ['a\r\nb', 'must not contain control characters'],
    ['tab\there', 'must not contain control characters'],
    ['del\x7f', 'must not contain control characters'],
    ['..', 'must not be "." or ".."'],
    ['.', 'must not be "." or ".."'],
    ['', 'must not be empty'],
    ['x'.repeat(257), 'must be at most 256 characters'],
  ])('refuses %j: %s', (value, issue) => {
    expect(clientIdIssue(value)).toBe(issue);
    expect(clientIdSchema.safeParse(value).success).toBe(false);
  });

  it.each(['thread-1', 'a..b', '../x', '日本', 'x'.repeat(256), 'with space', 'a:b/c'])(
    'takes %j',
    (value) => {
      expect(clientIdIssue(value)).toBeUndefined();
      expect(clientIdSchema.safeParse(value).success).toBe(true);
    },
  );
});
