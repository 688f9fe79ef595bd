import { defineTool, stateKeyStorageName } from '@awaken/contract';
import { createAgentRuntime } from '@awaken/runtime';
import { createMemoryThreadRunStore } from '@awaken/store-memory';
import { createScriptedModel } from '@awaken/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createPermissionPlugin } from '../../create-permission-plugin';
import type { PermissionConfigInput } from '../../permission-config';
import { type ShadowVerdictRecord, permissionShadowVerdictsKey } from '../../permission-state';

/** A runtime whose model calls `delete_file` once per path (one turn), then answers `done`. */
function setup(config: PermissionConfigInput, paths: string[]) {
  const deleted: string[] = [];
  const offered: string[][] = [];
  const reported: ShadowVerdictRecord[] = [];
  const tool = defineTool({
    name: 'delete_file',
    description: 'Deletes a file.',
    parameters: z.object({ path: z.string() }),
    execute: ({ path }) => {
      deleted.push(path);
      return { deleted: path };
    },
  });
  const model = createScriptedModel((request) => {
    offered.push(request.tools.map((entry) => entry.name));
    if (request.messages.some((message) => message.role === 'assistant')) return { text: 'done' };
    return {
      toolCalls: paths.map((path, index) => ({
        id: `call_${index}`,
        name: 'delete_file',
        arguments: { path },
      })),
    };
  });
  const threadRuns = createMemoryThreadRunStore();
  const runtime = createAgentRuntime({
    agents: [
      {
        id: 'agent',
        tools: [tool],
        plugins: [createPermissionPlugin(config, { onShadowVerdict: (verdict) => reported.push(verdict) })],
      },
    ],
    stores: { threadRuns },
    model,
  });
  async function verdicts(runId: string): Promise<ShadowVerdictRecord[]> {
    const record = await threadRuns.getRun(runId);
    return (record?.state[stateKeyStorageName(permissionShadowVerdictsKey)] ?? []) as ShadowVerdictRecord[];
  }
  return { runtime, deleted, offered, reported, verdicts };
}

describe('permission rules in shadow mode', () => {
  it('a shadow deny lets the call through and records that it would have denied; a shadow ask does not suspend', async () => {
    const { runtime, deleted, reported, verdicts } = setup(
      {
        defaultBehavior: 'ask',
        rules: [
          { tool: 'delete_file', behavior: 'allow' },
          { tool: 'delete_file(path ~ "/etc/**")', behavior: 'deny', shadow: true },
          { tool: 'delete_file(path ~ "tmp/**")', behavior: 'ask', shadow: true },
        ],
      },
      ['/etc/passwd', 'tmp/cache', 'notes.txt'],
    );
    const result = await runtime.runToCompletion({ agentId: 'agent', runId: 'run', input: 'tidy up' });
    // nothing was enforced: no suspension, every call ran
    expect(result.status).toBe('done');
    expect(deleted).toEqual(['/etc/passwd', 'tmp/cache', 'notes.txt']);
    const kept = await verdicts('run');
    expect(kept.map(({ at: _, ...verdict }) => verdict)).toEqual([
      {
        call: '1:call_0',
        toolCallId: 'call_0',
        toolName: 'delete_file',
        step: 1,
        behavior: 'deny',
        rule: 'delete_file(path ~ "/etc/**")',
        reason: 'denied by permission rule `delete_file(path ~ "/etc/**")`',
        enforced: 'allow',
      },
      {
        call: '1:call_1',
        toolCallId: 'call_1',
        toolName: 'delete_file',
        step: 1,
        behavior: 'ask',
        rule: 'delete_file(path ~ "tmp/**")',
        reason: 'approval required by permission rule `delete_file(path ~ "tmp/**")`',
        enforced: 'allow',
      },
    ]);
    // reported once per call instance, as kept (the gate may be judged more than once)
    expect(reported).toEqual(kept);
  });

  it('a rule set in shadow enforces nothing: a default deny neither removes the tool nor blocks the call', async () => {
    const { runtime, deleted, offered, verdicts } = setup(
      {
        shadow: true,
        defaultBehavior: 'deny',
        rules: [{ tool: 'delete_file(path ~ "tmp/**")', behavior: 'allow' }],
      },
      ['tmp/a', 'src/b'],
    );
    const result = await runtime.runToCompletion({ agentId: 'agent', runId: 'run', input: 'tidy up' });
    expect(result.status).toBe('done');
    expect(offered[0]).toEqual(['delete_file']);
    expect(deleted).toEqual(['tmp/a', 'src/b']);
    // only where it would have differed from what was enforced (allow): the default deny
    expect(
      (await verdicts('run')).map((verdict) => [verdict.toolCallId, verdict.behavior, verdict.rule]),
    ).toEqual([['call_1', 'deny', undefined]]);
  });

  it('a shadow allow does not loosen an enforced deny, and a verdict that changes nothing is not recorded', async () => {
    const { runtime, deleted, verdicts } = setup(
      {
        defaultBehavior: 'allow',
        rules: [
          { tool: 'delete_file(path ~ "/etc/**")', behavior: 'deny' },
          { tool: 'delete_file(path = "/etc/motd")', behavior: 'allow', shadow: true },
        ],
      },
      ['/etc/motd'],
    );
    await runtime.runToCompletion({ agentId: 'agent', runId: 'run', input: 'tidy up' });
    expect(deleted).toEqual([]);
    // deny > allow also with the shadow rule on: nothing would change, nothing is recorded
    expect(await verdicts('run')).toEqual([]);
  });
});
