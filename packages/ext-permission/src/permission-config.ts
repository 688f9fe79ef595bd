import { z } from 'zod';
import { parseRule } from './parse-rule';

/** What a rule (or the default) says about a call. */
export const permissionBehaviorSchema = z.enum(['allow', 'ask', 'deny']);
export type PermissionBehavior = z.infer<typeof permissionBehaviorSchema>;

const ruleTextSchema = z
  .string()
  .min(1)
  .superRefine((text, context) => {
    const result = parseRule(text);
    if (!result.ok)
      context.addIssue({
        code: 'custom',
        message: `${result.error.reason} (position ${result.error.position} of ${JSON.stringify(text)})`,
      });
  });

/**
 * One configured rule: a pattern such as `Bash(npm *)` and what to do with calls it matches.
 * `requireDistinctApprover` (an `ask` rule only): four-eyes — the ticket is answered only by an
 * identified approver other than the subject who started the run (others are refused
 * `self_approval_forbidden`), and a remembered approval never turns it into an allow. An `ask` rule
 * may set `approvalTimeout` (ms): its ticket expires then (the call resolves `expired`, never run),
 * over the tool's and the agent's timeout. `shadow: true`: the rule is judged and its verdict recorded
 * but not enforced (see `createPermissionPlugin`).
 */
export const permissionRuleConfigSchema = z
  .object({
    tool: ruleTextSchema,
    behavior: permissionBehaviorSchema,
    requireDistinctApprover: z.boolean().optional(),
    approvalTimeout: z.number().int().positive().optional(),
    shadow: z.boolean().optional(),
  })
  .refine((rule) => !rule.requireDistinctApprover || rule.behavior === 'ask', {
    message: 'requireDistinctApprover applies to an ask rule only',
    path: ['requireDistinctApprover'],
  });
export type PermissionRuleConfig = z.infer<typeof permissionRuleConfigSchema>;

/**
 * The permission plugin's configuration (per agent).
 * - `defaultBehavior` applies when no rule matches (default `ask`).
 * - `denyEndsRun`: a denied call ends the run `blocked` instead of telling the model (default false).
 * - `primaryArguments`: per exact tool name, the field path `Tool(glob)` rules match against, e.g.
 *   `{ Bash: 'command', Edit: 'file.path' }`.
 * - `rememberScope`: where a `remember: 'always'` approval is kept — the `thread` (default: later runs
 *   of the thread are not asked again) or only the current `run`.
 * - `inherit`: the rules also govern the sub-agents the agent delegates to (`agentTool`), at any
 *   depth (default true): a child runs under these rules plus its own and may tighten, never loosen
 *   them — a `deny` or `ask` here is never an `allow` in the child, and `defaultBehavior` applies to
 *   the child's tools that no rule here names. `false` leaves the children to their own rules.
 * - `shadow`: the whole rule set (its rules and `defaultBehavior`) is in shadow mode: judged and
 *   recorded, never enforced — every call is allowed (default false).
 */
export const permissionConfigSchema = z
  .object({
    defaultBehavior: permissionBehaviorSchema.default('ask'),
    rules: z.array(permissionRuleConfigSchema).default([]),
    denyEndsRun: z.boolean().default(false),
    primaryArguments: z.record(z.string(), z.string().min(1)).default({}),
    rememberScope: z.enum(['run', 'thread']).default('thread'),
    inherit: z.boolean().default(true),
    shadow: z.boolean().default(false),
  })
  .strict();
export type PermissionConfig = z.infer<typeof permissionConfigSchema>;
export type PermissionConfigInput = z.input<typeof permissionConfigSchema>;
