export { parseRule, parseRuleOrThrow } from './parse-rule';
export type {
  ArgumentPattern,
  ConditionOperator,
  FieldCondition,
  LiteralValue,
  PathSegment,
  PermissionRule,
  RuleParseError,
  RuleParseResult,
  ToolPattern,
} from './rule-ast';
export {
  matchArguments,
  matchCondition,
  matchRule,
  matchToolName,
  resolvePrimaryArgument,
} from './match-rule';
export type { PrimaryArgumentPaths, RuleMatch } from './match-rule';
export {
  permissionBehaviorSchema,
  permissionConfigSchema,
  permissionRuleConfigSchema,
} from './permission-config';
export type {
  PermissionBehavior,
  PermissionConfig,
  PermissionConfigInput,
  PermissionRuleConfig,
} from './permission-config';
export { createPermissionPolicy } from './create-permission-policy';
export type {
  PermissionCall,
  PermissionDecision,
  PermissionPolicy,
  PermissionRuntimeRules,
  ShadowVerdict,
} from './create-permission-policy';
export {
  PERMISSION_APPROVAL_JSON_SCHEMA,
  PERMISSION_SUSPENSION_PREFIX,
  approvalTicketId,
  buildApprovalSuspension,
  permissionApprovalSchema,
} from './permission-approval';
export type { PermissionApproval } from './permission-approval';
export {
  PERMISSION_STATE_KEYS,
  addPermissionRules,
  permissionApprovedCallsKey,
  permissionOverridesKey,
  permissionRunGrantsKey,
  permissionShadowVerdictsKey,
  permissionThreadGrantsKey,
  shadowVerdictRecordSchema,
  MAX_SHADOW_VERDICTS,
} from './permission-state';
export type { ShadowVerdictRecord } from './permission-state';
export { PERMISSION_PLUGIN_ID, createPermissionPlugin } from './create-permission-plugin';
export type { PermissionPlugin, PermissionPluginOptions } from './create-permission-plugin';
