import { describe, expect, it } from 'vitest';
import { readA2aVersion, readRpcRequest } from './read-rpc-request';

const envelope = (method: string) => ({ jsonrpc: '2.0', id: 3, method, params: { id: 't' } });

describe('readRpcRequest', () => {
  it('reads the version from the header: absent is 0.3, unknown is -32009', () => {
    expect(readA2aVersion(undefined)).toBe('0.3');
    expect(readA2aVersion('1.0')).toBe('1.0');
    expect(() => readA2aVersion('2.0')).toThrow(expect.objectContaining({ code: -32009 }));
  });

  it('serves v1.0 names only under A2A-Version 1.0, v0.3 names under either, answering in their shapes', () => {
    expect(readRpcRequest(envelope('GetTask'), '1.0')).toMatchObject({
      operation: 'get',
      version: '1.0',
      id: 3,
    });
    expect(() => readRpcRequest(envelope('GetTask'), '0.3')).toThrow(
      expect.objectContaining({ code: -32601 }),
    );
    expect(readRpcRequest(envelope('tasks/get'), '0.3')).toMatchObject({ operation: 'get', version: '0.3' });
    expect(readRpcRequest(envelope('tasks/resubscribe'), '1.0')).toMatchObject({
      operation: 'subscribe',
      version: '0.3',
    });
    expect(readRpcRequest(envelope('message/stream'), '0.3').operation).toBe('stream');
  });

  it('answers -32601 for method names that are Object.prototype properties (not a crash)', () => {
    for (const method of ['__proto__', 'toString', 'constructor', 'hasOwnProperty', 'valueOf']) {
      for (const version of ['0.3', '1.0'] as const) {
        expect(() => readRpcRequest(envelope(method), version)).toThrow(
          expect.objectContaining({ code: -32601 }),
        );
      }
    }
  });

  it('refuses malformed envelopes with -32600 and unknown methods with -32601', () => {
    expect(() => readRpcRequest([], '1.0')).toThrow(expect.objectContaining({ code: -32600 }));
    expect(() => readRpcRequest({ jsonrpc: '2.0', method: 'GetTask' }, '1.0')).toThrow(
      /id: a string or number/,
    );
    expect(() => readRpcRequest({ ...envelope('GetTask'), params: [1] }, '1.0')).toThrow(
      expect.objectContaining({ code: -32602 }),
    );
    expect(() => readRpcRequest(envelope('tasks/list'), '1.0')).toThrow(
      expect.objectContaining({ code: -32601 }),
    );
  });
});
