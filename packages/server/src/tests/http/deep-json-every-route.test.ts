import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type HttpFixture, createHttpFixture, startRun } from '../../../test-support/http-fixture';

/**
 * Every route of the OpenAPI document that takes a body (and every other write route), against
 * bodies nested far too deep, at the root and inside each field a route reads, with each JSON-ish
 * content type, and against huge flat bodies under the size limit: a 4xx (or a 2xx), never a 5xx.
 */
let fx: HttpFixture;
let known: { runId: string; threadId: string };
beforeAll(async () => {
  fx = await createHttpFixture();
  known = await startRun(fx, { input: 'approve:1' });
});
afterAll(() => fx.close());

const DEEP = 20_000;
const deepArray = (depth = DEEP) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
const deepObject = (depth = DEEP) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
const FIELDS = [
  'input',
  'context',
  'decisions',
  'result',
  'tools',
  'messages',
  'metadata',
  'payload',
  'editedArguments',
  'stream',
  'id',
];

function bodies(): Array<[string, string]> {
  const list: Array<[string, string]> = [
    ['deep array', deepArray()],
    ['deep object', deepObject()],
    ['deep object in a field', `{"agentId":"ops","input":"x","context":${deepObject()}}`],
    ['deep, whitespace-padded', ` \n${deepArray(20_000)}\n `],
    ['257 levels', deepArray(257)],
    // flat but huge (under the 1 MiB limit): many items each of which is invalid
    ['400k invalid decisions', `{"decisions":[${Array(200_000).fill('1').join(',')}]}`],
    ['400k empty objects', `{"decisions":[${Array(120_000).fill('{}').join(',')}]}`],
    ['400k messages', `{"id":"t","messages":[${Array(120_000).fill('{}').join(',')}]}`],
  ];
  for (const field of FIELDS) {
    list.push([`deep ${field}`, `{"agentId":"ops","input":"x","${field}":${deepArray()}}`]);
  }
  list.push([
    'deep inside a decision',
    `{"decisions":[{"toolCallId":"c","action":"resume","result":${deepArray()}}]}`,
  ]);
  list.push([
    'deep inside a chat message',
    `{"id":"t","messages":[{"id":"m","role":"user","parts":${deepArray()}}]}`,
  ]);
  return list;
}

const CONTENT_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'APPLICATION/JSON',
  'application/vnd.awaken+json',
  'text/plain',
];

describe('deep and huge JSON on every route', () => {
  it('never answers 5xx', async () => {
    const document = await fx.json('/openapi.json');
    const fill = (path: string) =>
      path
        .replace('{runId}', known.runId)
        .replace('{threadId}', known.threadId)
        .replace(/\{[^}]+\}/g, 'some-id');
    const routes: Array<[string, string]> = [];
    for (const [path, operations] of Object.entries(document.body.paths as Record<string, object>)) {
      for (const method of Object.keys(operations)) {
        if (method === 'get') continue;
        routes.push([method.toUpperCase(), fill(path)]);
      }
    }
    expect(routes.length).toBeGreaterThan(10);
    const failures: string[] = [];
    for (const [method, path] of routes) {
      for (const [name, raw] of bodies()) {
        for (const type of CONTENT_TYPES) {
          const response = await fx.call(path, { method, raw, headers: { 'content-type': type } });
          if (response.status >= 500)
            failures.push(`${method} ${path} ${name} (${type}): ${response.status}`);
          await response.body?.cancel();
        }
      }
    }
    expect(failures).toEqual([]);
  }, 240_000);
});
