import {
  type Plugin,
  type PluginStateAccess,
  type ToolCall,
  type ToolGateContext,
  type ToolGateDecision,
  callInstanceKey,
  assertNever,
  sameJson,
} from '@awaken/contract';
import {
  type PermissionDecision,
  type PermissionPolicy,
  type PermissionRuntimeRules,
  createPermissionPolicy,
} from './create-permission-policy';
import {
  buildApprovalSuspension,
  editedApprovalTicketId,
  isApprovalTicketOf,
  permissionApprovalSchema,
  refusalReason,
} from './permission-approval';
import type { PermissionConfigInput } from './permission-config';
import {
  PERMISSION_STATE_KEYS,
  addUnique,
  permissionApprovedCallsKey,
  permissionOverridesKey,
  permissionRunGrantsKey,
  permissionShadowVerdictsKey,
  permissionThreadGrantsKey,
  MAX_SHADOW_VERDICTS,
  type ShadowVerdictRecord,
} from './permission-state';

/** The plugin id; one permission plugin per agent. */
export const PERMISSION_PLUGIN_ID = 'permission';

/** What the plugin reports besides its decisions. */
export interface PermissionPluginOptions {
  /**
   * Called once per call instance for which the rules in shadow mode would have decided otherwise
   * than what was enforced (its record is also kept in the run's state, `permission.shadowVerdicts`):
   * count it in a metric, log it, send it on. It must not throw; it cannot change the decision.
   */
  onShadowVerdict?: (
    verdict: ShadowVerdictRecord,
    run: { runId: string; threadId: string; agentId: string },
  ) => void;
}

/** A permission plugin, with its compiled policy for inspection. */
export interface PermissionPlugin extends Plugin {
  readonly policy: PermissionPolicy;
}

const SIMPLE_NAME = /^[A-Za-z0-9_.:@-]+$/;

/** A rule matching exactly `toolName` (a regex literal when the name has pattern characters). */
function exactRuleFor(toolName: string): string {
  if (SIMPLE_NAME.test(toolName)) return toolName;
  return `/${toolName.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}/`;
}

/**
 * The call as the tool will run it. Arguments that are a string holding JSON (a model that
 * double-encodes its input) are parsed once more by the runtime before the tool runs, so the rules
 * must judge that value, not the string; otherwise `deploy(env = "prod")` would not see `env`.
 */
function asExecuted(call: ToolCall): ToolCall {
  if (typeof call.arguments !== 'string') return call;
  try {
    return { ...call, arguments: JSON.parse(call.arguments) };
  } catch {
    return call;
  }
}

function runtimeRulesOf(state: PluginStateAccess): PermissionRuntimeRules {
  const threadGrants = state.get(permissionThreadGrantsKey);
  const runGrants = state.get(permissionRunGrantsKey);
  return {
    overrides: state.get(permissionOverridesKey),
    grants: runGrants.length === 0 ? threadGrants : [...threadGrants, ...runGrants],
  };
}

/**
 * Creates the permission plugin (allow / ask / deny; ask suspends the call). Every rule is parsed now; an invalid rule throws
 * `AwakenError('invalid_config')` naming it, its position and the reason.
 *
 * - ToolGate: allow → `allow`; deny → `block` naming the rule (the model is told and the run goes on,
 *   unless `denyEndsRun`); ask → `suspend` with a `confirm` ticket replayed on approval.
 * - On replay after its own ticket: approved → the rules are checked again on the call as it will run
 *   (a deny added meanwhile, or one the edited arguments fall under, still wins); arguments edited
 *   into a four-eyes rule (`requireDistinctApprover`) ask again, with a new ticket for the edited call
 *   that its editor cannot answer (the runtime counts them among the run's askers); else allow; declined or cancelled → `cancel` with the refusal and the human's reason;
 *   `remember: 'always'` keeps an allow for that tool (thread or run scope, see `rememberScope`), which
 *   turns later asks for it into allows but never overrides a deny.
 * - BeforeInference: tools every call of which would be denied are removed from the model's tool list.
 * - Shadow mode: a rule with `shadow: true` (or every rule and the default, with `shadow: true` on the
 *   configuration) is judged at every ToolGate but never enforced — a shadow `deny` lets the call
 *   through, a shadow `ask` never suspends, a shadow deny removes no tool. When it would have decided
 *   otherwise, the verdict is kept once per call instance in the run's state
 *   (`permission.shadowVerdicts`, checkpointed with the run) and passed to `onShadowVerdict`.
 */
export function createPermissionPlugin(
  config: PermissionConfigInput = {},
  options: PermissionPluginOptions = {},
): PermissionPlugin {
  const policy = createPermissionPolicy(config);

  /**
   * Records what the shadow rules would have decided for this call instance, once: the gate is
   * judged again on replays and after earlier calls of the batch commit, and a record already kept
   * is not kept (or reported) again.
   */
  function recordShadow(context: ToolGateContext, decision: PermissionDecision): void {
    const verdict = policy.evaluateShadow(asExecuted(context.call), runtimeRulesOf(context.state));
    if (!verdict) return;
    const call = callInstanceKey(context);
    const kept = context.state.get(permissionShadowVerdictsKey);
    if (kept.some((entry) => entry.call === call)) return;
    const record: ShadowVerdictRecord = {
      call,
      toolCallId: context.call.id,
      toolName: context.call.name,
      step: context.step,
      behavior: verdict.behavior,
      ...(verdict.rule === undefined ? {} : { rule: verdict.rule }),
      reason: verdict.reason,
      enforced: decision.behavior,
      at: Date.now(),
    };
    if (kept.length < MAX_SHADOW_VERDICTS)
      context.state.update(permissionShadowVerdictsKey, (current) => [...current, record]);
    try {
      options.onShadowVerdict?.(record, {
        runId: context.runId,
        threadId: context.threadId,
        agentId: context.agentId,
      });
    } catch {
      // a reporting hook never changes the decision
    }
  }
  const grantsKey =
    policy.config.rememberScope === 'run' ? permissionRunGrantsKey : permissionThreadGrantsKey;

  function block(decision: PermissionDecision): ToolGateDecision {
    return {
      type: 'block',
      reason: `Permission denied: ${decision.reason}`,
      continueRun: !policy.config.denyEndsRun,
    };
  }

  function replayOwnTicket(context: ToolGateContext): ToolGateDecision {
    const resume = context.resume!;
    const call = context.call;
    if (resume.action === 'cancel')
      return { type: 'cancel', reason: refusalReason(call.name, resume.reason) };
    const approval = permissionApprovalSchema.safeParse(resume.result);
    if (!approval.success)
      return { type: 'cancel', reason: refusalReason(call.name, 'the approval answer was not understood') };
    if (!approval.data.approved)
      return { type: 'cancel', reason: refusalReason(call.name, approval.data.reason ?? resume.reason) };
    const decision = policy.evaluate(asExecuted(call), runtimeRulesOf(context.state));
    if (decision.behavior === 'deny') return block(decision);
    // Edited into a four-eyes rule: whoever edited asked for the edited call (the runtime counts them
    // among the run's askers), so it is a new question that only someone else may answer.
    const edited = approval.data.editedArguments;
    const ticket = context.ticket!;
    if (
      decision.behavior === 'ask' &&
      decision.requireDistinctApprover &&
      edited !== undefined &&
      !sameJson(edited, ticket.pending.arguments)
    ) {
      const ticketId = editedApprovalTicketId(context.step, call, ticket.suspension.id);
      return {
        type: 'suspend',
        suspension: buildApprovalSuspension(context.step, call, decision, { ticketId }),
        resumeMode: 'replay_tool_call',
        ...(decision.approvalTimeout === undefined ? {} : { approvalTimeout: decision.approvalTimeout }),
      };
    }
    // The only state this gate writes records the human's answer; both writes are idempotent, so
    // re-evaluating the same replay gives the same decision and the same state.
    addUnique(context.state, permissionApprovedCallsKey, callInstanceKey(context));
    if (approval.data.remember === 'always') addUnique(context.state, grantsKey, exactRuleFor(call.name));
    return { type: 'allow' };
  }

  function toolGate(context: ToolGateContext): ToolGateDecision {
    const ticket = context.ticket;
    if (
      context.resume !== undefined &&
      ticket?.suspension.action === 'confirm' &&
      isApprovalTicketOf(ticket.suspension.id, context.step, context.call)
    )
      return replayOwnTicket(context);
    const decision = policy.evaluate(asExecuted(context.call), runtimeRulesOf(context.state));
    recordShadow(context, decision);
    switch (decision.behavior) {
      case 'allow':
        return { type: 'allow' };
      case 'deny':
        return block(decision);
      case 'ask':
        // This call instance was approved earlier (it is replayed again, e.g. after the tool's own
        // suspension). A later call reusing the tool call id is another instance and is asked again.
        if (context.state.get(permissionApprovedCallsKey).includes(callInstanceKey(context)))
          return { type: 'allow' };
        return {
          type: 'suspend',
          suspension: buildApprovalSuspension(context.step, context.call, decision),
          resumeMode: 'replay_tool_call',
          ...(decision.approvalTimeout === undefined ? {} : { approvalTimeout: decision.approvalTimeout }),
        };
      default:
        return assertNever(decision.behavior, 'permission behavior');
    }
  }

  return {
    id: PERMISSION_PLUGIN_ID,
    stateKeys: PERMISSION_STATE_KEYS,
    inheritable: policy.config.inherit,
    definition: policy.config,
    policy,
    hooks: {
      beforeInference(context) {
        const rules = runtimeRulesOf(context.state);
        context.request.tools = context.request.tools.filter(
          (tool) => !policy.isDeniedUnconditionally(tool.name, rules),
        );
      },
      toolGate,
    },
  };
}
