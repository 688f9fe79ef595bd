import { AwakenError } from '@awaken/contract';
import { describe, expect, it } from 'vitest';
import { createPermissionPolicy } from './create-permission-policy';
import type { PermissionBehavior, PermissionRuleConfig } from './permission-config';

const allow = (tool: string): PermissionRuleConfig => ({ tool, behavior: 'allow' });
const ask = (tool: string): PermissionRuleConfig => ({ tool, behavior: 'ask' });
const deny = (tool: string): PermissionRuleConfig => ({ tool, behavior: 'deny' });

function caught(action: () => unknown): AwakenError {
  try {
    action();
  } catch (error) {
    if (AwakenError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected a throw');
}

describe('createPermissionPolicy: precedence', () => {
  const table: Array<{
    name: string;
    rules: PermissionRuleConfig[];
    call: { name: string; arguments: unknown };
    behavior: PermissionBehavior;
    rule: string | undefined;
  }> = [
    {
      name: 'a broad allow never overrides a narrower ask',
      rules: [allow('*'), ask('Bash(git push **)')],
      call: { name: 'Bash', arguments: { command: 'git push origin' } },
      behavior: 'ask',
      rule: 'Bash(git push **)',
    },
    {
      name: 'deny beats a more specific allow',
      rules: [allow('Bash(npm test)'), deny('Bash')],
      call: { name: 'Bash', arguments: { command: 'npm test' } },
      behavior: 'deny',
      rule: 'Bash',
    },
    {
      name: 'deny beats ask',
      rules: [ask('Bash'), deny('Bash(rm **)')],
      call: { name: 'Bash', arguments: { command: 'rm -rf /' } },
      behavior: 'deny',
      rule: 'Bash(rm **)',
    },
    {
      name: 'allow applies when nothing stricter matches',
      rules: [allow('Bash(npm *)'), deny('Bash(rm **)')],
      call: { name: 'Bash', arguments: { command: 'npm test' } },
      behavior: 'allow',
      rule: 'Bash(npm *)',
    },
    {
      name: 'the most specific deny is reported: exact name beats regex beats glob',
      rules: [deny('B*'), deny('/Ba.*/'), deny('Bash')],
      call: { name: 'Bash', arguments: {} },
      behavior: 'deny',
      rule: 'Bash',
    },
    {
      name: 'a regex beats a glob',
      rules: [ask('*'), ask('/Ba.*/')],
      call: { name: 'Bash', arguments: {} },
      behavior: 'ask',
      rule: '/Ba.*/',
    },
    {
      name: 'more conditions are more specific',
      rules: [deny('Edit(path ~ "src/**")'), deny('Edit(path ~ "src/**", mode = "write")')],
      call: { name: 'Edit', arguments: { path: 'src/a', mode: 'write' } },
      behavior: 'deny',
      rule: 'Edit(path ~ "src/**", mode = "write")',
    },
    {
      name: 'a longer literal is more specific at equal condition count',
      rules: [allow('Bash(npm *)'), allow('Bash(npm run *)')],
      call: { name: 'Bash', arguments: { command: 'npm run build' } },
      behavior: 'allow',
      rule: 'Bash(npm run *)',
    },
    {
      name: 'equally specific rules: the first declared is reported',
      rules: [ask('Read'), ask('Read(*)')],
      call: { name: 'Read', arguments: {} },
      behavior: 'ask',
      rule: 'Read',
    },
    {
      name: 'nothing matches: the default applies',
      rules: [allow('Read')],
      call: { name: 'Write', arguments: {} },
      behavior: 'deny',
      rule: undefined,
    },
    {
      name: 'an undeterminable primary argument makes a deny apply',
      rules: [allow('Bash'), deny('Bash(rm **)')],
      call: { name: 'Bash', arguments: { command: 'rm -rf /', note: 'sneaky' } },
      behavior: 'deny',
      rule: 'Bash(rm **)',
    },
    {
      name: 'an undeterminable primary argument never makes an allow apply',
      rules: [allow('Bash(npm *)')],
      call: { name: 'Bash', arguments: { command: 'npm test', cwd: '/' } },
      behavior: 'deny',
      rule: undefined,
    },
  ];

  it.each(table)('$name', ({ rules, call, behavior, rule }) => {
    const decision = createPermissionPolicy({ defaultBehavior: 'deny', rules }).evaluate(call);
    expect(decision.behavior).toBe(behavior);
    expect(decision.rule).toBe(rule);
    if (rule !== undefined) expect(decision.reason).toContain(`\`${rule}\``);
  });

  it('uses ask as the default behaviour when none is configured', () => {
    const decision = createPermissionPolicy({}).evaluate({ name: 'Any', arguments: {} });
    expect(decision).toMatchObject({ behavior: 'ask', source: 'default' });
  });

  it('matches primary globs against configured primary arguments', () => {
    const policy = createPermissionPolicy({
      defaultBehavior: 'ask',
      rules: [allow('Edit(src/**)')],
      primaryArguments: { Edit: 'file.path' },
    });
    const call = { name: 'Edit', arguments: { file: { path: 'src/a.ts' }, old: 'x', new: 'y' } };
    expect(policy.evaluate(call).behavior).toBe('allow');
  });
});

describe('createPermissionPolicy: run-time rules', () => {
  const policy = createPermissionPolicy({ defaultBehavior: 'allow', rules: [ask('Bash')] });
  const call = { name: 'Bash', arguments: { command: 'ls' } };

  it('evaluates overrides with the configured rules under the same precedence', () => {
    expect(policy.evaluate(call, { overrides: [deny('Bash(ls)')] })).toMatchObject({
      behavior: 'deny',
      source: 'override',
      rule: 'Bash(ls)',
    });
    expect(policy.evaluate(call, { overrides: [allow('Bash')] }).behavior).toBe('ask');
  });

  it('lets a remembered grant turn an ask into allow', () => {
    expect(policy.evaluate(call, { grants: ['Bash'] })).toMatchObject({
      behavior: 'allow',
      source: 'remembered',
    });
  });

  it('never lets a remembered grant override a deny', () => {
    const decision = policy.evaluate(call, { grants: ['Bash'], overrides: [deny('Bash')] });
    expect(decision.behavior).toBe('deny');
  });
});

describe('createPermissionPolicy: unconditional denial', () => {
  it('counts a deny rule without argument conditions', () => {
    const policy = createPermissionPolicy({
      defaultBehavior: 'allow',
      rules: [deny('mcp__*'), deny('Bash(rm **)')],
    });
    expect(policy.isDeniedUnconditionally('mcp__github__x')).toBe(true);
    expect(policy.isDeniedUnconditionally('Bash')).toBe(false);
  });

  it('counts a default deny only when no allow or ask rule could match the tool', () => {
    const policy = createPermissionPolicy({ defaultBehavior: 'deny', rules: [allow('Read(src/**)')] });
    expect(policy.isDeniedUnconditionally('Read')).toBe(false);
    expect(policy.isDeniedUnconditionally('Write')).toBe(true);
    expect(policy.isDeniedUnconditionally('Write', { overrides: [ask('Write')] })).toBe(false);
  });
});

describe('createPermissionPolicy: invalid configuration', () => {
  it('rejects a malformed rule naming its index, text and position', () => {
    const error = caught(() =>
      createPermissionPolicy({ defaultBehavior: 'ask', rules: [allow('Read'), deny('Bash(rm **')] }),
    );
    expect(error.code).toBe('invalid_config');
    expect(error.message).toContain('rules[1]');
    expect(error.message).toContain('"Bash(rm **"');
    expect(error.details).toMatchObject({ position: 10 });
  });

  it('rejects an invalid regex in a rule', () => {
    const error = caught(() => createPermissionPolicy({ rules: [deny('/mcp__(/')] }));
    expect(error.message).toMatch(/invalid regular expression/);
  });

  it('rejects an unknown behaviour and unknown keys', () => {
    expect(
      caught(() => createPermissionPolicy({ rules: [{ tool: 'x', behavior: 'maybe' as 'ask' }] })).code,
    ).toBe('invalid_config');
    expect(caught(() => createPermissionPolicy({ defualtBehavior: 'deny' } as never)).message).toMatch(
      /defualtBehavior/,
    );
  });

  it('rejects a malformed primary argument path', () => {
    const error = caught(() => createPermissionPolicy({ primaryArguments: { Edit: 'file..path' } }));
    expect(error.message).toContain('primaryArguments.Edit');
  });
});
