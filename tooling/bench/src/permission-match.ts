/**
 * Permission rule evaluation cost per tool call, with 10, 100 and 1000 rules, as a ratio to a single
 * exact-name check. Run: `pnpm --filter @awaken/bench exec tsx src/permission-match.ts`
 * (or `npx tsx tooling/bench/src/permission-match.ts` from the repo root).
 *
 * Two rule sets per size:
 * - mixed: a realistic spread (a third exact names of other tools, a third primary-argument globs and
 *   field conditions on the called tool, a third glob/regex tool patterns);
 * - worst: every rule has a glob tool pattern matching the called tool plus a field condition, so
 *   every rule is fully evaluated for every call.
 */
import { loadavg } from 'node:os';
import { type PermissionRuleConfig, createPermissionPolicy, parseRule } from '@awaken/ext-permission';

const CALL = {
  name: 'Bash',
  arguments: { command: 'npm run build -- --out dist/app', timeout: 60 },
};
const BEHAVIORS = ['allow', 'ask', 'deny'] as const;

function mixedRules(count: number): PermissionRuleConfig[] {
  return Array.from({ length: count }, (_, index) => {
    const behavior = BEHAVIORS[index % 3]!;
    switch (index % 6) {
      case 0:
        return { tool: `tool_${index}`, behavior };
      case 1:
        return { tool: `Bash(git${index} **)`, behavior };
      case 2:
        return { tool: `Bash(command ~ "cmd${index} **", timeout = ${index})`, behavior };
      case 3:
        return { tool: `mcp__server${index}__*`, behavior };
      case 4:
        return { tool: `/mcp__(gh|gl)${index}__.*/`, behavior };
      default:
        return { tool: `Edit(file.path ~ "src/${index}/**")`, behavior };
    }
  });
}

function worstRules(count: number): PermissionRuleConfig[] {
  return Array.from({ length: count }, (_, index) => ({
    tool: `B*(command =~ "^x${index}", args[*] ~ "y${index}/**")`,
    behavior: BEHAVIORS[index % 3]!,
  }));
}

let sink = 0;

/**
 * Nanoseconds per call of `body`: the fastest of `rounds` timed rounds after a warm-up (the minimum is
 * the least disturbed by other processes sharing the machine).
 */
function measure(body: () => number, { warmup = 20_000, minMs = 150, rounds = 7 } = {}): number {
  for (let index = 0; index < warmup; index++) sink += body();
  const samples: number[] = [];
  for (let round = 0; round < rounds; round++) {
    let iterations = 0;
    const start = performance.now();
    let elapsed = 0;
    do {
      for (let index = 0; index < 1000; index++) sink += body();
      iterations += 1000;
      elapsed = performance.now() - start;
    } while (elapsed < minMs);
    samples.push((elapsed * 1e6) / iterations);
  }
  return Math.min(...samples);
}

// Baseline: deciding the same call with a policy holding one exact-name rule (`Bash`).
const single = createPermissionPolicy({
  defaultBehavior: 'ask',
  rules: [{ tool: 'Bash', behavior: 'allow' }],
});
const baselineNs = measure(() => single.evaluate(CALL).reason.length);
// For scale: a bare string comparison, the floor of any name check.
const expectedName = parseRule('Bash');
const bareName =
  expectedName.ok && expectedName.rule.tool.kind === 'exact' ? expectedName.rule.tool.name : '';
const bareNs = measure(() => (CALL.name === bareName ? 1 : 0));

const rows: string[] = [];
for (const [name, build] of [
  ['mixed', mixedRules],
  ['worst', worstRules],
] as const) {
  for (const count of [10, 100, 1000]) {
    const policy = createPermissionPolicy({ defaultBehavior: 'ask', rules: build(count) });
    const decision = policy.evaluate(CALL);
    const ns = measure(() => policy.evaluate(CALL).reason.length);
    rows.push(
      `| ${name} | ${count} | ${(ns / 1000).toFixed(2)} | ${Math.round(ns / baselineNs)}x | ${decision.behavior} |`,
    );
  }
}

console.log(
  `node ${process.version}, ${process.platform}/${process.arch}, load average ${loadavg()
    .map((load) => load.toFixed(2))
    .join(' ')}`,
);
console.log(`baseline: evaluate with one exact-name rule = ${baselineNs.toFixed(1)} ns per call`);
console.log(`(bare string comparison = ${bareNs.toFixed(1)} ns)`);
console.log('| rule set | rules | µs per call | ratio to one exact-name rule | decision |');
console.log('|---|---:|---:|---:|---|');
for (const row of rows) console.log(row);
if (sink === -1) console.log('unreachable');
