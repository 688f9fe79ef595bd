import { AwakenError, type PluginStateAccess, type StateKey, defineStateKey } from '@awaken/contract';
import { z } from 'zod';
import { parseRuleOrThrow } from './parse-rule';
import {
  type PermissionRuleConfig,
  permissionBehaviorSchema,
  permissionRuleConfigSchema,
} from './permission-config';

const ruleListSchema = z.array(permissionRuleConfigSchema);

/** Every permission key is a persistent list, empty until something is added. */
function persistentListKey<T>(
  name: string,
  scope: StateKey<T[]>['scope'],
  item: z.ZodType<T>,
): StateKey<T[]> {
  return defineStateKey({ name, scope, persistent: true, initial: () => [], schema: z.array(item) });
}

/** Run-scoped rules added at run time (persistent, so they survive a suspension and a cold resume). */
export const permissionOverridesKey: StateKey<PermissionRuleConfig[]> = persistentListKey(
  'permission.overrides',
  'run',
  permissionRuleConfigSchema,
);

/** `remember: 'always'` approvals kept for the whole thread (rule texts). */
export const permissionThreadGrantsKey: StateKey<string[]> = persistentListKey(
  'permission.grants',
  'thread',
  z.string(),
);

/** `remember: 'always'` approvals kept for the current run only (with `rememberScope: 'run'`). */
export const permissionRunGrantsKey: StateKey<string[]> = persistentListKey(
  'permission.grants',
  'run',
  z.string(),
);

/**
 * Call instances (`callInstanceKey`: `<step>:<toolCallId>`) a human approved in this run, so a later
 * replay of the same instance is not asked again, while a later turn reusing the id is.
 */
export const permissionApprovedCallsKey: StateKey<string[]> = persistentListKey(
  'permission.approvedCalls',
  'run',
  z.string(),
);

/** One verdict of the rules in shadow mode that was not enforced, as the run's audit keeps it. */
export const shadowVerdictRecordSchema = z.object({
  /** The call instance (`callInstanceKey`: `<step>:<toolCallId>`): one record per instance. */
  call: z.string(),
  toolCallId: z.string(),
  toolName: z.string(),
  step: z.number().int().nonnegative(),
  /** What the call would have got with the shadow rules enforced. */
  behavior: permissionBehaviorSchema,
  /** The rule that would have decided (absent: the default would have). */
  rule: z.string().optional(),
  reason: z.string(),
  /** What the call got. */
  enforced: permissionBehaviorSchema,
  /** When it was judged (epoch ms). */
  at: z.number().int().nonnegative(),
});
export type ShadowVerdictRecord = z.infer<typeof shadowVerdictRecordSchema>;

/** Most shadow verdicts one run keeps; later ones are still reported to `onShadowVerdict`. */
export const MAX_SHADOW_VERDICTS = 500;

/**
 * The verdicts of the rules in shadow mode that were not enforced, in this run, oldest first (at
 * most {@link MAX_SHADOW_VERDICTS}): persistent, so they are stored with the run's checkpoints and
 * shown with the run's state (`GET /v1/runs/:id`).
 */
export const permissionShadowVerdictsKey: StateKey<ShadowVerdictRecord[]> = persistentListKey(
  'permission.shadowVerdicts',
  'run',
  shadowVerdictRecordSchema,
);

/** Every state key the permission plugin reads or writes. */
export const PERMISSION_STATE_KEYS = [
  permissionOverridesKey,
  permissionThreadGrantsKey,
  permissionRunGrantsKey,
  permissionApprovedCallsKey,
  permissionShadowVerdictsKey,
] as const;

/**
 * Adds run-scoped rules from any hook (`addPermissionRules(context.state, [...])`). They join the
 * configured rules under the same precedence (deny > ask > allow), from the next ToolGate on, and
 * are checkpointed with the run. Each rule is parsed now: a malformed one throws
 * `AwakenError('invalid_config')` and nothing is added.
 */
export function addPermissionRules(state: PluginStateAccess, rules: readonly PermissionRuleConfig[]): void {
  for (const rule of rules) {
    parseRuleOrThrow(rule.tool, 'override rule');
    if (!permissionBehaviorSchema.safeParse(rule.behavior).success)
      throw new AwakenError(
        'invalid_config',
        `invalid override rule ${JSON.stringify(rule.tool)}: behavior must be allow, ask or deny, got ${JSON.stringify(rule.behavior)}`,
        { details: { rule: rule.tool, behavior: rule.behavior } },
      );
  }
  const parsed = ruleListSchema.parse(rules.map((rule) => ({ tool: rule.tool, behavior: rule.behavior })));
  state.update(permissionOverridesKey, (current) => [...current, ...parsed]);
}

/** Adds `value` to a list-valued key unless it is already there. */
export function addUnique(state: PluginStateAccess, key: StateKey<string[]>, value: string): void {
  state.update(key, (current) => (current.includes(value) ? current : [...current, value]));
}
