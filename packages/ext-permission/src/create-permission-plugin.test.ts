import {
  type BeforeInferenceContext,
  type PluginStateAccess,
  type StateKey,
  type SuspendTicket,
  type ToolCall,
  type ToolCallResume,
  type ToolGateContext,
  type ToolGateDecision,
  stateKeyStorageName,
  validateJsonSchema,
} from '@awaken/contract';
import { describe, expect, it } from 'vitest';
import { createPermissionPlugin } from './create-permission-plugin';
import type { PermissionConfigInput } from './permission-config';
import {
  addPermissionRules,
  permissionOverridesKey,
  permissionRunGrantsKey,
  permissionThreadGrantsKey,
} from './permission-state';

function createState(): PluginStateAccess {
  const values = new Map<string, unknown>();
  const access: PluginStateAccess = {
    get<T>(key: StateKey<T>): T {
      const name = stateKeyStorageName(key);
      return (values.has(name) ? values.get(name) : key.initial()) as T;
    },
    set<T>(key: StateKey<T>, value: T): void {
      values.set(stateKeyStorageName(key), value);
    },
    update<T>(key: StateKey<T>, update: (current: T) => T): T {
      const next = update(access.get(key));
      access.set(key, next);
      return next;
    },
  };
  return access;
}

function gateContext(
  call: ToolCall,
  state: PluginStateAccess,
  replay?: { ticket: SuspendTicket; resume: ToolCallResume },
): ToolGateContext {
  return {
    phase: 'ToolGate',
    runId: 'run-1',
    threadId: 'thread-1',
    agentId: 'agent',
    step: 1,
    state,
    signal: new AbortController().signal,
    messages: [],
    runContext: {},
    call,
    batch: [],
    ...(replay ?? {}),
  } as ToolGateContext;
}

const CONFIG: PermissionConfigInput = {
  defaultBehavior: 'ask',
  rules: [
    { tool: 'Read', behavior: 'allow' },
    { tool: 'Bash(rm **)', behavior: 'deny' },
    { tool: 'Deploy', behavior: 'deny' },
  ],
};

async function gate(
  plugin: ReturnType<typeof createPermissionPlugin>,
  context: ToolGateContext,
): Promise<ToolGateDecision | undefined> {
  return plugin.hooks.toolGate?.(context);
}

async function askAndTicket(
  plugin: ReturnType<typeof createPermissionPlugin>,
  call: ToolCall,
  state: PluginStateAccess,
) {
  const decision = await gate(plugin, gateContext(call, state));
  if (decision?.type !== 'suspend') throw new Error(`expected suspend, got ${JSON.stringify(decision)}`);
  const ticket: SuspendTicket = {
    suspension: decision.suspension,
    pending: { id: call.id, name: call.name, arguments: call.arguments },
    resumeMode: decision.resumeMode ?? 'replay_tool_call',
  };
  return ticket;
}

function resumeWith(
  result: unknown,
  action: 'resume' | 'cancel' = 'resume',
  reason?: string,
): ToolCallResume {
  return { decisionId: `d-${Math.random()}`, action, result, updatedAt: 1, ...(reason ? { reason } : {}) };
}

const bash = (id: string, command: string): ToolCall => ({ id, name: 'Bash', arguments: { command } });

describe('permission plugin: ToolGate', () => {
  it('allows a call an allow rule matches', async () => {
    const plugin = createPermissionPlugin(CONFIG);
    const decision = await gate(
      plugin,
      gateContext({ id: 'c1', name: 'Read', arguments: {} }, createState()),
    );
    expect(decision).toEqual({ type: 'allow' });
  });

  it('blocks a denied call naming the rule, and lets the run continue', async () => {
    const plugin = createPermissionPlugin(CONFIG);
    const decision = await gate(plugin, gateContext(bash('c1', 'rm -rf /'), createState()));
    expect(decision).toMatchObject({ type: 'block', continueRun: true });
    expect(decision?.type === 'block' && decision.reason).toContain('`Bash(rm **)`');
  });

  it('judges arguments sent as a JSON string by the object they parse to, as the runtime runs them', async () => {
    const plugin = createPermissionPlugin({
      defaultBehavior: 'allow',
      rules: [
        { tool: 'Bash(rm **)', behavior: 'deny' },
        { tool: 'Edit(file.path ~ "/etc/**")', behavior: 'deny' },
      ],
    });
    const asText = (id: string, name: string, args: unknown): ToolCall => ({
      id,
      name,
      arguments: JSON.stringify(args),
    });
    const bashDecision = await gate(
      plugin,
      gateContext(asText('c1', 'Bash', { command: 'rm -rf /' }), createState()),
    );
    expect(bashDecision).toMatchObject({ type: 'block' });
    const editDecision = await gate(
      plugin,
      gateContext(asText('c2', 'Edit', { file: { path: '/etc/passwd' } }), createState()),
    );
    expect(editDecision).toMatchObject({ type: 'block' });
    // A string that is not JSON is still judged as the text itself.
    const raw = await gate(
      plugin,
      gateContext({ id: 'c3', name: 'Bash', arguments: 'rm -rf /' }, createState()),
    );
    expect(raw).toMatchObject({ type: 'block' });
  });

  it('ends the run on deny when denyEndsRun is set', async () => {
    const plugin = createPermissionPlugin({ ...CONFIG, denyEndsRun: true });
    const decision = await gate(plugin, gateContext(bash('c1', 'rm x'), createState()));
    expect(decision).toMatchObject({ type: 'block', continueRun: false });
  });

  it('suspends an asked call with a replayable confirm ticket naming tool and arguments', async () => {
    const plugin = createPermissionPlugin(CONFIG);
    const decision = await gate(plugin, gateContext(bash('c1', 'npm test'), createState()));
    expect(decision).toMatchObject({
      type: 'suspend',
      resumeMode: 'replay_tool_call',
      suspension: {
        id: 'permission:1:c1',
        action: 'confirm',
        parameters: { toolName: 'Bash', arguments: { command: 'npm test' }, rule: null },
      },
    });
    if (decision?.type !== 'suspend') return;
    expect(decision.suspension.message).toContain('"Bash"');
    expect(decision.suspension.message).toContain('npm test');
    const schema = decision.suspension.responseSchema!;
    expect(validateJsonSchema(schema, { approved: true, remember: 'always' })).toEqual([]);
    expect(validateJsonSchema(schema, { approved: 'yes' })).not.toEqual([]);
    expect(validateJsonSchema(schema, { remember: 'once' })).not.toEqual([]);
    expect(validateJsonSchema(schema, { approved: true, extra: 1 })).not.toEqual([]);
  });

  it('allows an approved replay', async () => {
    const plugin = createPermissionPlugin(CONFIG);
    const state = createState();
    const call = bash('c1', 'npm test');
    const ticket = await askAndTicket(plugin, call, state);
    const decision = await gate(
      plugin,
      gateContext(call, state, { ticket, resume: resumeWith({ approved: true }) }),
    );
    expect(decision).toEqual({ type: 'allow' });
  });

  it('cancels a declined replay with the refusal and the reason', async () => {
    const plugin = createPermissionPlugin(CONFIG);
    const state = createState();
    const call = bash('c1', 'npm publish');
    const ticket = await askAndTicket(plugin, call, state);
    const resume = resumeWith({ approved: false, reason: 'not on a Friday' });
    const decision = await gate(plugin, gateContext(call, state, { ticket, resume }));
    expect(decision).toEqual({
      type: 'cancel',
      reason: 'The user declined the call to "Bash": not on a Friday',
    });
  });

  it('cancels on a cancel decision, using the decision reason', async () => {
    const plugin = createPermissionPlugin(CONFIG);
    const state = createState();
    const call = bash('c1', 'npm publish');
    const ticket = await askAndTicket(plugin, call, state);
    const resume = resumeWith(null, 'cancel', 'changed my mind');
    const decision = await gate(plugin, gateContext(call, state, { ticket, resume }));
    expect(decision).toEqual({
      type: 'cancel',
      reason: 'The user declined the call to "Bash": changed my mind',
    });
  });

  it('re-checks the rules on an approved replay, so a deny added meanwhile wins', async () => {
    const plugin = createPermissionPlugin(CONFIG);
    const state = createState();
    const call = bash('c1', 'npm publish');
    const ticket = await askAndTicket(plugin, call, state);
    addPermissionRules(state, [{ tool: 'Bash(npm publish)', behavior: 'deny' }]);
    const decision = await gate(
      plugin,
      gateContext(call, state, { ticket, resume: resumeWith({ approved: true }) }),
    );
    expect(decision).toMatchObject({ type: 'block' });
    expect(decision?.type === 'block' && decision.reason).toContain('`Bash(npm publish)`');
  });

  it("remembers an approval with remember: 'always' for later calls of the tool in the thread", async () => {
    const plugin = createPermissionPlugin(CONFIG);
    const state = createState();
    const call = bash('c1', 'npm test');
    const ticket = await askAndTicket(plugin, call, state);
    const resume = resumeWith({ approved: true, remember: 'always' });
    await gate(plugin, gateContext(call, state, { ticket, resume }));
    expect(state.get(permissionThreadGrantsKey)).toEqual(['Bash']);
    expect(await gate(plugin, gateContext(bash('c2', 'npm run lint'), state))).toEqual({ type: 'allow' });
    expect(await gate(plugin, gateContext(bash('c3', 'rm -rf /'), state))).toMatchObject({ type: 'block' });
  });

  it("keeps a remembered approval in the run with rememberScope: 'run'", async () => {
    const plugin = createPermissionPlugin({ ...CONFIG, rememberScope: 'run' });
    const state = createState();
    const call = bash('c1', 'npm test');
    const ticket = await askAndTicket(plugin, call, state);
    await gate(
      plugin,
      gateContext(call, state, { ticket, resume: resumeWith({ approved: true, remember: 'always' }) }),
    );
    expect(state.get(permissionRunGrantsKey)).toEqual(['Bash']);
    expect(state.get(permissionThreadGrantsKey)).toEqual([]);
  });

  it("does not remember an approval given with remember: 'once'", async () => {
    const plugin = createPermissionPlugin(CONFIG);
    const state = createState();
    const call = bash('c1', 'npm test');
    const ticket = await askAndTicket(plugin, call, state);
    await gate(
      plugin,
      gateContext(call, state, { ticket, resume: resumeWith({ approved: true, remember: 'once' }) }),
    );
    expect((await gate(plugin, gateContext(bash('c2', 'npm test'), state)))?.type).toBe('suspend');
  });

  it('does not ask again when an approved call is replayed after a suspension of its own', async () => {
    const plugin = createPermissionPlugin(CONFIG);
    const state = createState();
    const call = bash('c1', 'npm test');
    const ticket = await askAndTicket(plugin, call, state);
    await gate(plugin, gateContext(call, state, { ticket, resume: resumeWith({ approved: true }) }));
    const toolTicket: SuspendTicket = {
      suspension: { id: 'tool-own', action: 'input', message: 'which?', parameters: {} },
      pending: { id: 'c1', name: 'Bash', arguments: call.arguments },
      resumeMode: 'replay_tool_call',
    };
    const decision = await gate(
      plugin,
      gateContext(call, state, { ticket: toolTicket, resume: resumeWith('x') }),
    );
    expect(decision).toEqual({ type: 'allow' });
  });

  it('asks on a replay of a ticket that another plugin created', async () => {
    const plugin = createPermissionPlugin(CONFIG);
    const call = bash('c1', 'npm test');
    const foreign: SuspendTicket = {
      suspension: { id: 'other:c1', action: 'confirm', message: 'other', parameters: {} },
      pending: { id: 'c1', name: 'Bash', arguments: call.arguments },
      resumeMode: 'replay_tool_call',
    };
    const decision = await gate(
      plugin,
      gateContext(call, createState(), { ticket: foreign, resume: resumeWith({ approved: true }) }),
    );
    expect(decision?.type).toBe('suspend');
  });

  it('treats an unreadable approval payload as a refusal', async () => {
    const plugin = createPermissionPlugin(CONFIG);
    const state = createState();
    const call = bash('c1', 'npm test');
    const ticket = await askAndTicket(plugin, call, state);
    const decision = await gate(plugin, gateContext(call, state, { ticket, resume: resumeWith({ ok: 1 }) }));
    expect(decision?.type).toBe('cancel');
  });
});

describe('permission plugin: BeforeInference', () => {
  function inferenceContext(state: PluginStateAccess, names: string[]): BeforeInferenceContext {
    return {
      phase: 'BeforeInference',
      runId: 'run-1',
      threadId: 'thread-1',
      agentId: 'agent',
      step: 1,
      state,
      signal: new AbortController().signal,
      messages: [],
      runContext: {},
      request: {
        system: undefined,
        tools: names.map((name) => ({ name, description: name, parameters: { type: 'object' } })),
        toolChoice: undefined,
        options: {},
      },
      skipInference() {},
    };
  }

  it('removes tools denied unconditionally and keeps conditionally denied ones', async () => {
    const plugin = createPermissionPlugin(CONFIG);
    const context = inferenceContext(createState(), ['Read', 'Bash', 'Deploy']);
    await plugin.hooks.beforeInference?.(context);
    expect(context.request.tools.map((tool) => tool.name)).toEqual(['Read', 'Bash']);
  });

  it('removes tools that only the default would deny, and honours run overrides', async () => {
    const plugin = createPermissionPlugin({
      defaultBehavior: 'deny',
      rules: [{ tool: 'Read', behavior: 'allow' }],
    });
    const state = createState();
    addPermissionRules(state, [{ tool: 'Write(path ~ "tmp/**")', behavior: 'ask' }]);
    const context = inferenceContext(state, ['Read', 'Write', 'Bash']);
    await plugin.hooks.beforeInference?.(context);
    expect(context.request.tools.map((tool) => tool.name)).toEqual(['Read', 'Write']);
  });
});

describe('addPermissionRules', () => {
  it('rejects an override with an unknown behaviour as invalid_config and adds nothing', () => {
    const state = createState();
    let thrown: unknown;
    try {
      addPermissionRules(state, [
        { tool: 'Read', behavior: 'allow' },
        { tool: 'Bash', behavior: 'block' as 'deny' },
      ]);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toMatchObject({ code: 'invalid_config' });
    expect(String((thrown as Error).message)).toContain('Bash');
    expect(state.get(permissionOverridesKey)).toEqual([]);
  });

  it('rejects a malformed rule and adds nothing', () => {
    const state = createState();
    expect(() =>
      addPermissionRules(state, [
        { tool: 'Read', behavior: 'allow' },
        { tool: 'Bash(', behavior: 'deny' },
      ]),
    ).toThrow(/override rule/);
    expect(state.get(permissionOverridesKey)).toEqual([]);
  });
});
