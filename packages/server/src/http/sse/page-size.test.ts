import { describe, expect, it } from 'vitest';
import { PageSize } from './page-size';

describe('PageSize', () => {
  it('starts at maxEvents and shrinks to keep a page near maxBytes, never below one event', () => {
    const pages = new PageSize({ maxEvents: 100, maxBytes: 10_000 });
    expect(pages.limit).toBe(100);
    pages.observe(10, 10_000); // 1 000 bytes per event
    expect(pages.limit).toBe(10);
    pages.observe(1, 1_000_000); // one huge event
    expect(pages.limit).toBe(1);
    pages.observe(50, 500); // small again
    expect(pages.limit).toBe(100);
    pages.observe(0, 0);
    expect(pages.limit).toBe(100);
  });
});
