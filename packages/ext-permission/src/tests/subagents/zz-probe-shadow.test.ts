import { type InferenceRequest, type Plugin, approve, defineTool, stateKeyStorageName } from '@awaken/contract';
import { agentTool, createAgentRuntime } from '@awaken/runtime';
import { createMemoryThreadRunStore } from '@awaken/store-memory';
import { countExecutions, createScriptedModel } from '@awaken/testing';
import { expect, it } from 'vitest';
import { z } from 'zod';
import { createPermissionPlugin } from '../../create-permission-plugin';
import type { PermissionConfigInput } from '../../permission-config';
import { permissionShadowVerdictsKey } from '../../permission-state';

const lastResult = (request: InferenceRequest) => { const last = request.messages.at(-1); return last?.role === 'tool' ? last : undefined; };
function setup(parent: PermissionConfigInput, janitorPlugins: Plugin[] = [], reported: unknown[] = []) {
  const tool = countExecutions(defineTool({ name: 'delete_file', description: 'd', parameters: z.object({ path: z.string() }), execute: ({ path }) => ({ deleted: path }) }));
  const janitor = createScriptedModel((request) => { const r = lastResult(request); if (!r) return { toolCalls: [{ id: 'del', name: 'delete_file', arguments: { path: '/etc/x' } }] }; return { text: `${r.outcome}: ${JSON.stringify(r.content)}` }; });
  const assistant = createScriptedModel((request) => { const r = lastResult(request); if (!r) return { toolCalls: [{ id: 'delegate', name: 'janitor', arguments: { task: 'delete' } }] }; return { text: `janitor says ${JSON.stringify(r.content)}` }; });
  const threadRuns = createMemoryThreadRunStore();
  const runtime = createAgentRuntime({
    agents: [
      { id: 'assistant', model: assistant, tools: [agentTool('janitor')], plugins: [createPermissionPlugin(parent, { onShadowVerdict: (v, run) => reported.push({ v, run }) })] },
      { id: 'janitor', model: janitor, tools: [tool.tool], plugins: janitorPlugins },
    ],
    stores: { threadRuns },
  });
  return { runtime, deletes: tool.count, threadRuns };
}
async function allVerdicts(threadRuns: any) {
  const out: unknown[] = [];
  for (const t of (await threadRuns.listThreads?.({ limit: 100 }))?.items ?? []) void t;
  return out;
}
for (const [name, parent, child] of [
  ['parent shadow deny, child none', { defaultBehavior: 'allow', rules: [{ tool: 'delete_file', behavior: 'deny', shadow: true }] }, []],
  ['parent shadow deny, child own allow plugin', { defaultBehavior: 'allow', rules: [{ tool: 'delete_file', behavior: 'deny', shadow: true }] }, [createPermissionPlugin({ defaultBehavior: 'allow' })]],
  ['parent shadow ask, child none', { defaultBehavior: 'allow', rules: [{ tool: 'delete_file', behavior: 'ask', shadow: true }] }, []],
  ['parent whole shadow default deny', { defaultBehavior: 'deny', shadow: true }, []],
  ['parent enforced allow, child shadow deny', { defaultBehavior: 'allow' }, [createPermissionPlugin({ defaultBehavior: 'allow', rules: [{ tool: 'delete_file', behavior: 'deny', shadow: true }] })]],
] as const) {
  it(name, async () => {
    const reported: unknown[] = [];
    const { runtime, deletes, threadRuns } = setup(parent as never, child as never, reported);
    const done = await runtime.runToCompletion({ agentId: 'assistant', input: 'clean up' });
    console.log(name, '| status', done.status, '| deletes', deletes(), '| response', done.response?.slice(0, 120));
    console.log('  reported', JSON.stringify(reported));
    const parentRec = await threadRuns.getRun(done.runId);
    console.log('  parent verdicts', JSON.stringify(parentRec?.state[stateKeyStorageName(permissionShadowVerdictsKey)]));
    const children = (await threadRuns.listRuns ? [] : []);
    void children; void allVerdicts; void approve;
  });
}
