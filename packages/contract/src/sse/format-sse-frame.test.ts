import { describe, expect, it } from 'vitest';
import { SSE_KEEP_ALIVE, formatSseFrame } from './format-sse-frame';

/** What a client makes of one block, as the WHATWG parser does: data lines joined with `\n`. */
function parseBlock(text: string): { id?: string; event?: string; data?: string; comments: string[] } {
  expect(text.endsWith('\n\n')).toBe(true);
  const parsed: { id?: string; event?: string; data?: string; comments: string[] } = { comments: [] };
  for (const line of text.slice(0, -2).split('\n')) {
    if (line.startsWith(':')) parsed.comments.push(line.slice(1).trimStart());
    else {
      const colon = line.indexOf(':');
      const field = line.slice(0, colon);
      const value = line.slice(colon + 1).replace(/^ /, '');
      if (field === 'data') parsed.data = parsed.data === undefined ? value : `${parsed.data}\n${value}`;
      else if (field === 'id' || field === 'event') parsed[field] = value;
    }
  }
  return parsed;
}

describe('formatSseFrame', () => {
  it('writes the fields in a fixed order, LF-ended, closed by a blank line', () => {
    expect(formatSseFrame({ data: '{"a":1}' })).toBe('data: {"a":1}\n\n');
    expect(formatSseFrame({ id: 7, data: 'x' })).toBe('id: 7\ndata: x\n\n');
    expect(formatSseFrame({ event: 'error', data: 'x' })).toBe('event: error\ndata: x\n\n');
    expect(formatSseFrame({ retry: 1000, comment: 'awaken event stream' })).toBe(
      'retry: 1000\n: awaken event stream\n\n',
    );
    expect(formatSseFrame({ data: 'x', event: 'e', id: 'a', comment: 'c', retry: 0 })).toBe(
      'retry: 0\n: c\nid: a\nevent: e\ndata: x\n\n',
    );
    expect(formatSseFrame({ comment: 'keep-alive' })).toBe(SSE_KEEP_ALIVE);
    expect(formatSseFrame({ data: '' })).toBe('data: \n\n');
  });

  it('never puts a raw line break inside a data or comment line: a client reads the same value back', () => {
    const value = 'one\r\ntwo\rthree\nfour\n';
    const text = formatSseFrame({ comment: 'a\nb', data: value });
    expect(text).not.toContain('\r');
    expect(text).toBe(': a\n: b\ndata: one\ndata: two\ndata: three\ndata: four\ndata: \n\n');
    expect(text.slice(0, -2)).not.toContain('\n\n');
    expect(parseBlock(text)).toEqual({ data: 'one\ntwo\nthree\nfour\n', comments: ['a', 'b'] });
    const json = JSON.stringify({ text: 'a\r\nb', nested: ['\n'] });
    expect(parseBlock(formatSseFrame({ id: 3, data: json }))).toEqual({ id: '3', data: json, comments: [] });
  });

  it('refuses what no client could read back: a line break in an id or event, a bad retry, no field', () => {
    expect(() => formatSseFrame({ id: 'a\nb', data: 'x' })).toThrow(TypeError);
    expect(() => formatSseFrame({ id: 'a\0b', data: 'x' })).toThrow(TypeError);
    expect(() => formatSseFrame({ event: 'a\rb', data: 'x' })).toThrow(TypeError);
    expect(() => formatSseFrame({ retry: -1 })).toThrow(TypeError);
    expect(() => formatSseFrame({ retry: 1.5 })).toThrow(TypeError);
    expect(() => formatSseFrame({})).toThrow(TypeError);
  });
});
