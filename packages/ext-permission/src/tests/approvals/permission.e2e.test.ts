import {
  type Message,
  type Plugin,
  type ToolCallDecision,
  approve,
  defineTool,
  deny,
} from '@awaken/contract';
import { type RunStateSnapshot, createAgentRuntime } from '@awaken/runtime';
import { createMemoryThreadRunStore } from '@awaken/store-memory';
import { type ScriptedTurn, countExecutions, createScriptedModel } from '@awaken/testing';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { createPermissionPlugin } from '../../create-permission-plugin';
import { addPermissionRules, permissionOverridesKey } from '../../permission-state';

function countedTool(name: string) {
  return countExecutions(
    defineTool({
      name,
      description: `${name} tool`,
      parameters: z.object({}).passthrough(),
      execute: (args) => ({ ran: name, args }),
    }),
  );
}

function setup(turns: ScriptedTurn[]) {
  const readFile = countedTool('read_file');
  const bash = countedTool('bash');
  const deploy = countedTool('deploy');
  const wipe = countedTool('wipe_disk');
  const plugin = createPermissionPlugin({
    defaultBehavior: 'ask',
    rules: [
      { tool: 'read_file', behavior: 'allow' },
      { tool: 'bash', behavior: 'ask' },
      { tool: 'deploy(env = "prod")', behavior: 'deny' },
      { tool: 'wipe_*', behavior: 'deny' },
    ],
  });
  const snapshots: RunStateSnapshot[] = [];
  const model = createScriptedModel(turns);
  const store = createMemoryThreadRunStore();
  const runtime = createAgentRuntime({
    agents: [
      {
        id: 'agent',
        tools: [readFile.tool, bash.tool, deploy.tool, wipe.tool],
        plugins: [plugin],
        toolExecution: 'parallel',
      },
    ],
    stores: { threadRuns: store },
    model,
    onStateChange: (snapshot) => snapshots.push(snapshot),
  });
  return { runtime, model, store, snapshots, counts: { readFile, bash, deploy } };
}

const call = (id: string, name: string, args: unknown) => ({ id, name, arguments: args });

function decision(toolCallId: string, result: unknown): ToolCallDecision {
  return { toolCallId, decisionId: `d_${toolCallId}`, action: 'resume', result, updatedAt: 1 };
}

function statusOf(snapshots: RunStateSnapshot[], runId: string, callId: string): string | undefined {
  const latest = snapshots.filter((snapshot) => snapshot.runId === runId).at(-1);
  return latest?.calls.find((state) => state.callId === callId)?.status;
}

function toolMessage(messages: readonly Message[], toolCallId: string) {
  return messages.find((message) => message.role === 'tool' && message.toolCallId === toolCallId);
}

/** Every string inside a value, joined, so assertions do not depend on the content's shape. */
function stringsIn(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value !== 'object' || value === null) return '';
  return Object.values(value).map(stringsIn).join('\n');
}

describe('permission plugin end to end with the runtime', () => {
  it('allows, asks and denies one parallel round; approval runs the asked call', async () => {
    const { runtime, model, snapshots, counts } = setup([
      {
        toolCalls: [
          call('a', 'read_file', { path: 'README.md' }),
          call('b', 'bash', { command: 'npm test' }),
          call('c', 'deploy', { env: 'prod' }),
        ],
      },
      { text: 'all done' },
    ]);
    const handle = runtime.run({ agentId: 'agent', input: 'go', onSuspend: 'wait' });
    await vi.waitFor(() => expect(statusOf(snapshots, handle.runId, 'b')).toBe('suspended'));
    // The allowed call ran and the denied one failed while the asked one waits.
    await vi.waitFor(() => expect(statusOf(snapshots, handle.runId, 'a')).toBe('succeeded'));
    expect(statusOf(snapshots, handle.runId, 'c')).toBe('failed');
    expect(counts.readFile.count('a')).toBe(1);
    expect(counts.deploy.count()).toBe(0);
    expect(counts.bash.count()).toBe(0);
    const waiting = snapshots.filter((snapshot) => snapshot.runId === handle.runId).at(-1);
    expect(waiting?.calls.find((state) => state.callId === 'b')?.ticket).toMatchObject({
      resumeMode: 'replay_tool_call',
      suspension: { action: 'confirm', parameters: { toolName: 'bash', rule: 'bash' } },
    });

    const [receipt] = await handle.decide(decision('b', { approved: true }));
    expect(receipt?.status).toBe('accepted');
    const result = await handle.result;
    expect(result).toMatchObject({
      status: 'done',
      termination: { type: 'natural_end' },
      response: 'all done',
    });
    expect(counts.bash.count('b')).toBe(1);

    const seen = model.requests[1]!.messages;
    expect(toolMessage(seen, 'a')).toMatchObject({ outcome: 'succeeded' });
    expect(toolMessage(seen, 'b')).toMatchObject({ outcome: 'succeeded' });
    expect(toolMessage(seen, 'c')).toMatchObject({ outcome: 'failed' });
    expect(stringsIn(toolMessage(seen, 'c'))).toContain(
      'Permission denied: denied by permission rule `deploy(env = "prod")`',
    );
    // Unconditionally denied tools never reach the model; conditionally denied ones do.
    expect(model.requests[0]!.tools.map((tool) => tool.name)).toEqual(['read_file', 'bash', 'deploy']);
  });

  it("asks again after a 'once' approval, and not after remember: 'always' in a later run", async () => {
    const { runtime, snapshots, counts } = setup([
      { toolCalls: [call('b1', 'bash', { command: 'ls' })] },
      { text: 'one' },
      { toolCalls: [call('b2', 'bash', { command: 'ls' })] },
      { text: 'two' },
      { toolCalls: [call('b3', 'bash', { command: 'npm run lint' })] },
      { text: 'three' },
    ]);
    const first = runtime.run({ agentId: 'agent', input: 'one', onSuspend: 'wait' });
    await vi.waitFor(() => expect(statusOf(snapshots, first.runId, 'b1')).toBe('suspended'));
    await first.decide(decision('b1', { approved: true, remember: 'once' }));
    await first.result;

    const second = runtime.run({
      agentId: 'agent',
      threadId: first.threadId,
      input: 'two',
      onSuspend: 'wait',
    });
    await vi.waitFor(() => expect(statusOf(snapshots, second.runId, 'b2')).toBe('suspended'));
    const ticket = snapshots.at(-1)!.calls.find((state) => state.callId === 'b2')!.ticket!;
    await second.decide(approve(ticket, { extra: { remember: 'always' } }));
    expect((await second.result).response).toBe('two');

    const third = await runtime.runToCompletion({
      agentId: 'agent',
      threadId: first.threadId,
      input: 'three',
    });
    expect(third).toMatchObject({ status: 'done', response: 'three' });
    expect(
      snapshots.some((snapshot) => snapshot.runId === third.runId && snapshot.status === 'waiting'),
    ).toBe(false);
    expect(counts.bash.count()).toBe(3);
  });

  it('tells the model the refusal and the reason when the human declines', async () => {
    const { runtime, model, snapshots, counts } = setup([
      { toolCalls: [call('b', 'bash', { command: 'npm publish' })] },
      { text: 'understood' },
    ]);
    const handle = runtime.run({ agentId: 'agent', input: 'publish', onSuspend: 'wait' });
    await vi.waitFor(() => expect(statusOf(snapshots, handle.runId, 'b')).toBe('suspended'));
    await handle.decide(decision('b', { approved: false, reason: 'not on a Friday' }));
    expect(await handle.result).toMatchObject({ status: 'done', response: 'understood' });
    expect(counts.bash.count()).toBe(0);
    const refusal = toolMessage(model.requests[1]!.messages, 'b');
    expect(refusal).toMatchObject({ outcome: 'cancelled' });
    expect(stringsIn(refusal)).toContain('The user declined the call to "bash": not on a Friday');
  });

  it('cancels the asked call on a cancel decision without running it', async () => {
    const { runtime, model, snapshots, counts } = setup([
      { toolCalls: [call('b', 'bash', { command: 'npm publish' })] },
      { text: 'ok' },
    ]);
    const handle = runtime.run({ agentId: 'agent', input: 'publish', onSuspend: 'wait' });
    await vi.waitFor(() => expect(statusOf(snapshots, handle.runId, 'b')).toBe('suspended'));
    await handle.decide({
      toolCallId: 'b',
      decisionId: 'cancel_b',
      action: 'cancel',
      result: null,
      reason: 'wrong package',
      updatedAt: 1,
    });
    expect(await handle.result).toMatchObject({ status: 'done', response: 'ok' });
    expect(counts.bash.count()).toBe(0);
    const refusal = toolMessage(model.requests[1]!.messages, 'b');
    expect(refusal).toMatchObject({ outcome: 'cancelled' });
    expect(stringsIn(refusal)).toContain('wrong package');
  });

  it('judges arguments the model sent as a JSON string by the object the tool receives', async () => {
    // Some models double-encode tool input. The runtime parses the string again before running the
    // tool, so a rule on `env` must see that object, not the string.
    const deploy = countedTool('deploy');
    const snapshots: RunStateSnapshot[] = [];
    const runtime = createAgentRuntime({
      agents: [
        {
          id: 'agent',
          tools: [deploy.tool],
          plugins: [
            createPermissionPlugin({
              defaultBehavior: 'allow',
              rules: [{ tool: 'deploy(env = "prod")', behavior: 'deny' }],
            }),
          ],
        },
      ],
      stores: { threadRuns: createMemoryThreadRunStore() },
      model: createScriptedModel([
        { toolCalls: [call('d', 'deploy', JSON.stringify(JSON.stringify({ env: 'prod' })))] },
        { text: 'ok' },
      ]),
      onStateChange: (snapshot) => snapshots.push(snapshot),
    });
    const handle = runtime.run({ agentId: 'agent', input: 'ship it', onSuspend: 'wait' });
    expect(await handle.result).toMatchObject({ status: 'done' });
    expect(deploy.count()).toBe(0);
    expect(statusOf(snapshots, handle.runId, 'd')).toBe('failed');
  });
});

describe('permission plugin with the contract approval helpers', () => {
  it('approve() runs the asked call, deny() cancels it with the reason the model reads', async () => {
    const { runtime, model, counts } = setup([
      {
        toolCalls: [
          call('b1', 'bash', { command: 'npm test' }),
          call('b2', 'bash', { command: 'npm publish' }),
        ],
      },
      { text: 'done' },
    ]);
    const first = await runtime.runToCompletion({ agentId: 'agent', input: 'go' });
    const [ticket1, ticket2] = first.waiting!.tickets;
    const resumed = runtime.resumeRun(first.runId, {
      decisions: [approve(ticket1!), deny(ticket2!, 'not on a Friday')],
    });
    expect((await resumed.receipts).map((receipt) => receipt.status)).toEqual(['accepted', 'accepted']);
    expect(await resumed.result).toMatchObject({ status: 'done', response: 'done' });
    expect(counts.bash.count('b1')).toBe(1);
    expect(counts.bash.count('b2')).toBe(0);
    expect(stringsIn(toolMessage(model.requests[1]!.messages, 'b2'))).toContain('not on a Friday');
  });

  it('judges edited arguments again: an edit a deny rule matches is blocked, an allowed edit runs', async () => {
    const { runtime, counts } = setup([
      { toolCalls: [call('d1', 'deploy', { env: 'staging' }), call('d2', 'deploy', { env: 'staging' })] },
      { text: 'done' },
    ]);
    const first = await runtime.runToCompletion({ agentId: 'agent', input: 'go' });
    const [ticket1, ticket2] = first.waiting!.tickets;
    const done = await runtime.resumeRun(first.runId, {
      decisions: [
        approve(ticket1!, { editedArguments: { env: 'prod' } }),
        approve(ticket2!, { editedArguments: { env: 'qa' } }),
      ],
    }).result;
    expect(done.status).toBe('done');
    expect(counts.deploy.count('d1')).toBe(0);
    expect(counts.deploy.count('d2')).toBe(1);
  });
});

describe('run-scoped overrides from another plugin', () => {
  it('apply when that plugin declares the overrides key, and are refused when it does not', async () => {
    const deploy = countedTool('deploy');
    const run = (declares: boolean) => {
      const lockdown: Plugin = {
        id: 'lockdown',
        stateKeys: declares ? [permissionOverridesKey] : [],
        hooks: {
          runStart: (context) => addPermissionRules(context.state, [{ tool: 'deploy', behavior: 'deny' }]),
        },
      };
      const runtime = createAgentRuntime({
        agents: [
          {
            id: 'agent',
            tools: [deploy.tool],
            plugins: [createPermissionPlugin({ defaultBehavior: 'allow' }), lockdown],
          },
        ],
        stores: { threadRuns: createMemoryThreadRunStore() },
        model: createScriptedModel([{ toolCalls: [call('d', 'deploy', { env: 'qa' })] }, { text: 'ok' }]),
      });
      return runtime.runToCompletion({ agentId: 'agent', input: 'ship it' });
    };
    expect(await run(true)).toMatchObject({ status: 'done', response: 'ok' });
    expect(deploy.count()).toBe(0);
    const refused = await run(false);
    expect(refused.termination).toMatchObject({ type: 'error', code: 'invalid_config' });
    expect(JSON.stringify(refused.termination)).toContain('lockdown');
  });
});
