import { readFileSync } from 'node:fs';
import * as contract from '@awaken/contract';
import * as permission from '@awaken/ext-permission';
import * as runtime from '@awaken/runtime';
import * as storeMemory from '@awaken/store-memory';
import * as testing from '@awaken/testing';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import * as zod from 'zod';

const DOC = readFileSync(new URL('../../../../../docs/concepts/decisions.md', import.meta.url), 'utf8');

const MODULES: Record<string, Record<string, unknown>> = {
  '@awaken/contract': contract,
  '@awaken/ext-permission': permission,
  '@awaken/runtime': runtime,
  '@awaken/store-memory': storeMemory,
  '@awaken/testing': testing,
  zod,
};

/** The first `ts` block of the section `## heading`. */
function snippetAfter(heading: string): string {
  const start = DOC.indexOf(`## ${heading}`);
  if (start < 0) throw new Error(`decisions.md has no section "${heading}"`);
  const block = /```ts\n([\s\S]*?)```/.exec(DOC.slice(start));
  if (!block?.[1]) throw new Error(`section "${heading}" has no ts block`);
  return block[1];
}

/** Runs a snippet as written: its imports resolved from the real packages, `scope` as free names. */
async function runSnippet(code: string, scope: Record<string, unknown>, results: string[]) {
  const js = ts.transpileModule(code, {
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
  }).outputText;
  const body = js.replace(/^import \{([^}]*)\} from '([^']+)';$/gm, (_line, names: string, from: string) => {
    const module = MODULES[from];
    if (!module) throw new Error(`the snippet imports unknown package ${from}`);
    const bindings = names
      .split(',')
      .map((name) => name.trim())
      .filter(Boolean)
      .map((name) => {
        if (!(name in module)) throw new Error(`${from} does not export ${name}`);
        return name;
      });
    return `const { ${bindings.join(', ')} } = __modules[${JSON.stringify(from)}];`;
  });
  const AsyncFunction = Object.getPrototypeOf(async () => {}).constructor as new (
    ...args: string[]
  ) => (...values: unknown[]) => Promise<Record<string, unknown>>;
  const run = new AsyncFunction(
    '__modules',
    ...Object.keys(scope),
    `${body}\nreturn { ${results.join(', ')} };`,
  );
  return run(MODULES, ...Object.values(scope));
}

describe('docs/concepts/decisions.md examples', () => {
  it('Expiry: the rule timeout wins, a late answer is ticket_expired, the run moves on', async () => {
    const model = testing.createScriptedModel((request) =>
      request.messages.at(-1)?.role === 'user'
        ? { toolCalls: [{ name: 'refund', arguments: { orderId: '7' } }] }
        : { text: 'The refund was not approved in time.' },
    );
    const { ticket, late, moved } = await runSnippet(snippetAfter('Expiry'), { model }, [
      'ticket',
      'late',
      'moved',
    ]);
    expect(ticket).toMatchObject({ toolName: 'refund', action: 'confirm' });
    expect((late as runtime.DecideResult).receipts[0]).toMatchObject({
      status: 'rejected',
      reason: 'ticket_expired',
    });
    expect(moved).toMatchObject({ status: 'done', response: 'The refund was not approved in time.' });
  });
});
