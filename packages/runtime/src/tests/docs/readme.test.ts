import { readFileSync } from 'node:fs';
import * as contract from '@awaken/contract';
import * as storeMemory from '@awaken/store-memory';
import { createScriptedModel } from '@awaken/testing';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import * as runtimeExports from '../../index';

const README = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8');

/** The first `ts` code block after the heading that starts with `heading`. */
function snippetAfter(heading: string): string {
  const start = README.indexOf(`## ${heading}`);
  if (start < 0) throw new Error(`README has no section "${heading}"`);
  const block = /```ts\n([\s\S]*?)```/.exec(README.slice(start));
  if (!block?.[1]) throw new Error(`README section "${heading}" has no ts block`);
  return block[1];
}

const MODULES: Record<string, Record<string, unknown>> = {
  '@awaken/contract': contract,
  '@awaken/runtime': runtimeExports,
  '@awaken/store-memory': storeMemory,
};

/**
 * Runs a README snippet as written: transpiled by TypeScript, its imports resolved from the real
 * packages (an import of a name a package does not export fails the test), the free names given as
 * `scope`, and the values of `results` returned.
 */
async function runSnippet(
  code: string,
  scope: Record<string, unknown>,
  results: string[],
): Promise<Record<string, unknown>> {
  const js = ts.transpileModule(code, {
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
  }).outputText;
  const body = js.replace(/^import \{([^}]*)\} from '([^']+)';$/gm, (_line, names: string, from: string) => {
    const module = MODULES[from];
    if (!module) throw new Error(`README imports unknown package ${from}`);
    const bindings = names
      .split(',')
      .map((name) => name.trim())
      .filter(Boolean)
      .map((name) => {
        const [exported, local = exported] = name.split(/\s+as\s+/) as [string, string?];
        if (!(exported in module)) throw new Error(`${from} does not export ${exported}`);
        return `${exported}: ${local}`;
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

describe('README examples', () => {
  it('resumes a tool that needs approval hot and cold', async () => {
    let deletions = 0;
    const deleteFile = contract.defineTool({
      name: 'delete_file',
      description: 'Deletes a file.',
      parameters: z.object({ path: z.string() }),
      execute: ({ path }) => {
        deletions += 1;
        return { deleted: path };
      },
    });
    const model = createScriptedModel((request) =>
      request.messages.at(-1)?.role === 'user'
        ? { toolCalls: [{ name: 'delete_file', arguments: { path: '/tmp/x' } }] }
        : { text: 'Deleted.' },
    );
    const { hot, waiting, done } = await runSnippet(
      snippetAfter('A tool that needs approval'),
      { model, deleteFile },
      ['hot', 'waiting', 'done'],
    );
    expect(await (hot as runtimeExports.RunHandle).result).toMatchObject({
      status: 'done',
      response: 'Deleted.',
    });
    expect(waiting).toMatchObject({ status: 'waiting' });
    expect(done).toMatchObject({ status: 'done', response: 'Deleted.' });
    expect(deletions).toBe(2);
  });

  it('delegates to a sub-agent whose question is answered at the top-level run', async () => {
    let deletions = 0;
    const deleteFile = contract.defineTool({
      name: 'delete_file',
      description: 'Deletes a file.',
      parameters: z.object({ path: z.string() }),
      execute: ({ path }) => {
        deletions += 1;
        return { deleted: path };
      },
    });
    const lastIsTool = (request: { messages: readonly contract.Message[] }) =>
      request.messages.at(-1)?.role === 'tool';
    const assistantModel = createScriptedModel((request) =>
      lastIsTool(request)
        ? { text: 'The janitor deleted /tmp/report.txt.' }
        : { toolCalls: [{ name: 'janitor', arguments: { task: 'delete /tmp/report.txt' } }] },
    );
    const janitorModel = createScriptedModel((request) =>
      lastIsTool(request)
        ? { text: 'Deleted.' }
        : { toolCalls: [{ name: 'delete_file', arguments: { path: '/tmp/report.txt' } }] },
    );
    const approval: contract.Plugin = {
      id: 'approval',
      hooks: {
        toolGate: (context) =>
          context.resume
            ? undefined
            : {
                type: 'suspend',
                suspension: { id: `ok_${context.call.id}`, action: 'approve', message: 'Delete this file?' },
              },
      },
    };
    const { question, answered } = await runSnippet(
      snippetAfter('Sub-agents'),
      {
        assistantModel,
        janitorModel,
        deleteFile,
        approval,
        createMemoryThreadRunStore: storeMemory.createMemoryThreadRunStore,
      },
      ['question', 'answered'],
    );
    expect(question).toMatchObject({
      message: 'janitor › delete_file: Delete this file?',
      nested: {
        toolName: 'delete_file',
        arguments: { path: '/tmp/report.txt' },
        agentPath: ['assistant', 'janitor'],
      },
    });
    expect(answered).toMatchObject({ status: 'done', response: 'The janitor deleted /tmp/report.txt.' });
    expect(deletions).toBe(1);
  });

  it('delivers a decision given to another process by ticket id to the live run', async () => {
    let deletions = 0;
    const deleteFile = contract.defineTool({
      name: 'delete_file',
      description: 'Deletes a file.',
      parameters: z.object({ path: z.string() }),
      execute: ({ path }) => {
        deletions += 1;
        return { deleted: path };
      },
    });
    const model = createScriptedModel((request) =>
      request.messages.at(-1)?.role === 'user'
        ? { toolCalls: [{ name: 'delete_file', arguments: { path: '/tmp/c' } }] }
        : { text: 'Deleted.' },
    );
    const approval: contract.Plugin = {
      id: 'approval',
      hooks: {
        toolGate: (context) =>
          context.resume
            ? undefined
            : {
                type: 'suspend',
                suspension: {
                  id: `ok_${contract.callInstanceKey(context)}`,
                  action: 'approve',
                  message: 'Delete?',
                  parameters: context.call.arguments,
                },
              },
      },
    };
    const stores = storeMemory.createMemoryStores();
    const agents = [{ id: 'ops', model, tools: [deleteFile], plugins: [approval] }];
    const runtime = runtimeExports.createAgentRuntime({ agents, stores });
    // another process sharing the stores
    const replica = runtimeExports.createAgentRuntime({ agents, stores });
    const { finished } = await runSnippet(
      snippetAfter('Decisions from another process'),
      { runtime, replica },
      ['finished'],
    );
    expect(finished).toMatchObject({ status: 'done', response: 'Deleted.' });
    expect(deletions).toBe(1);
    expect(await stores.inbox.peek((finished as { runId: string }).runId)).toEqual([]);
  });

  it('runs a client tool through the client and shows the caller context to hooks', async () => {
    const contexts: unknown[] = [];
    const model = createScriptedModel((request) =>
      request.messages.at(-1)?.role === 'user'
        ? { toolCalls: [{ name: 'get_location', arguments: { precision: 'city' } }] }
        : { text: `You are in ${JSON.stringify(request.messages.at(-1))}` },
    );
    const runtime = runtimeExports.createAgentRuntime({
      agents: [
        {
          id: 'ops',
          model,
          plugins: [{ id: 'audit', hooks: { runStart: (c) => void contexts.push(c.runContext) } }],
        },
      ],
      stores: storeMemory.createMemoryStores(),
    });
    const { asked, answered } = await runSnippet(snippetAfter('Client tools'), { runtime }, [
      'asked',
      'answered',
    ]);
    expect(asked).toMatchObject({ status: 'waiting', waiting: { tickets: [{ action: 'client_tool' }] } });
    expect(answered).toMatchObject({ status: 'done' });
    expect((answered as { response: string }).response).toContain('Paris');
    expect(contexts).toEqual([{ user: 'ada' }, { user: 'ada' }]);
  });
});
