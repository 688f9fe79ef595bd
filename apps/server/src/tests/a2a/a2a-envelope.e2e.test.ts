import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AppProcess, startAppProcess } from '../../../test-support/app-process';

const TOKEN = 'a2a-envelope-token-one';
let app: AppProcess;
beforeAll(async () => {
  app = await startAppProcess({ AWAKEN_TOKENS: `${TOKEN}:one`, AWAKEN_DEMO_DELAY_MS: '5' });
});
afterAll(async () => {
  await app?.stop();
});

async function rpc(body: string): Promise<{ status: number; body: any }> {
  const response = await fetch(`${app.url}/v1/a2a`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` },
    body,
  });
  const text = await response.text();
  return { status: response.status, body: JSON.parse(text) };
}

describe('every answer of the A2A JSON-RPC endpoint is a JSON-RPC response', () => {
  it('a method named after an Object.prototype member is -32601, not a 500', async () => {
    for (const method of ['__proto__', 'toString', 'constructor', 'hasOwnProperty']) {
      const answer = await rpc(JSON.stringify({ jsonrpc: '2.0', id: 7, method, params: {} }));
      expect({ method, status: answer.status, code: answer.body.error?.code, id: answer.body.id }).toEqual({
        method,
        status: 200,
        code: -32601,
        id: 7,
      });
    }
  });

  it('a body nested too deep is a JSON-RPC -32600 carrying the request id, not a REST 422', async () => {
    const deep = `${'{"a":'.repeat(1000)}1${'}'.repeat(1000)}`;
    const answer = await rpc(
      `{"jsonrpc":"2.0","id":"deep-1","method":"message/send","params":{"message":{"kind":"message","role":"user","messageId":"m","parts":[{"kind":"data","data":${deep}}]}}}`,
    );
    expect({ status: answer.status, jsonrpc: answer.body.jsonrpc, id: answer.body.id }).toEqual({
      status: 200,
      jsonrpc: '2.0',
      id: 'deep-1',
    });
    expect(answer.body.error?.code).toBe(-32600);
  });
});
