import type { AgentEvent, RunEventLog } from '@awaken/contract';
import { Counter, Registry } from 'prom-client';

/**
 * Where the permission plugin (`@awaken/ext-permission`) keeps a run's shadow verdicts in its state:
 * the storage name of its run-scoped key `permission.shadowVerdicts`. The server reads it by name (it
 * does not depend on the plugin); a run without shadow rules never has it.
 */
export const SHADOW_VERDICTS_STATE = 'run:permission.shadowVerdicts';

/** One shadow verdict as the meter counts it (the plugin's record, the fields it reads). */
export interface CountedShadowVerdict {
  runId: string;
  /** The call instance (`<step>:<toolCallId>`). */
  call: string;
  toolName: string;
  /** The rule that would have decided; absent: the default would have. */
  rule?: string;
  /** What the shadow rules would have done. */
  behavior: string;
  /** What was enforced. */
  enforced: string;
  at: number;
}

export interface ShadowVerdictMeterOptions {
  /** The Prometheus registry the counter registers in (pass it to `createHttpApp`). Default: its own. */
  registry?: Registry;
  /** Distinct `tool` and `rule` label values kept each; past them a value is counted as `other`. Default 100. */
  maxLabelValues?: number;
  /** Called once with each counted verdict (logs, tests). */
  onVerdict?: (verdict: CountedShadowVerdict) => void;
  /** Activations followed at once; the oldest are forgotten past it. Default 10 000. */
  maxActivations?: number;
}

export interface ShadowVerdictMeter {
  readonly registry: Registry;
  /**
   * Feeds appended events (pass as `observeEvents`, alone or with other observers); never throws.
   * With `eventLog`, a sub-agent's verdicts are counted too: the child's events are in its own log,
   * read once its activation ends (the parent's `subagent_finish`).
   */
  observe(batch: { runId: string; events: readonly AgentEvent[]; eventLog?: RunEventLog }): void;
}

const BEHAVIORS = new Set(['allow', 'ask', 'deny']);

/** Events read per page of a child's log. */
const CHILD_PAGE = 500;

/** The events of a child's log appended at or after `since` (its activation the parent just drove). */
async function childActivationEvents(eventLog: RunEventLog, childRunId: string, since: number) {
  const events: AgentEvent[] = [];
  let afterSeq = 0;
  while (true) {
    const page = await eventLog.read(childRunId, { afterSeq, limit: CHILD_PAGE });
    for (const event of page) if (event.at >= since) events.push(event);
    if (page.length < CHILD_PAGE) return events;
    afterSeq = page.at(-1)?.seq ?? afterSeq;
  }
}

/** A label that takes at most `max` distinct values in this process; later new ones read `other`. */
function boundedLabel(max: number): (value: string) => string {
  const seen = new Set<string>();
  return (value) => {
    if (seen.has(value)) return value;
    if (seen.size >= max) return 'other';
    seen.add(value);
    return value;
  };
}

function verdictOf(runId: string, value: unknown): CountedShadowVerdict | undefined {
  if (!value || typeof value !== 'object') return undefined;
  const entry = value as Record<string, unknown>;
  const { call, toolName, rule, behavior, enforced, at } = entry;
  if (typeof call !== 'string' || typeof toolName !== 'string' || typeof at !== 'number') return undefined;
  if (typeof behavior !== 'string' || typeof enforced !== 'string') return undefined;
  return {
    runId,
    call,
    toolName,
    ...(typeof rule === 'string' ? { rule } : {}),
    behavior,
    enforced,
    at,
  };
}

/**
 * Counts the verdicts of permission rules in shadow mode (`shadow: true`) as
 * `awaken_shadow_verdicts_total{tool, rule, shadow, enforced}` — `shadow` what the shadow rules would
 * have done, `enforced` what the call got, `rule` the rule that would have decided (`default` for
 * the default behaviour). Plugins emit no events of their own: the meter reads the verdicts the
 * plugin records in the run's state, from the `state_snapshot` events of the activations this
 * process executes (`MailboxServiceOptions.observeEvents`).
 *
 * Each verdict is counted once, by the activation that judged it: a resumed activation's snapshots
 * carry the verdicts of earlier activations (restored from the checkpoint), and only those judged at
 * or after the activation's `run_start` are counted, each call instance once per activation. A call
 * judged again after a crash before its checkpoint (its verdict was never stored) is judged, and
 * counted, again. `tool` and `rule` take at most `maxLabelValues` distinct values each (then
 * `other`), so a rule set or a model that names ever new tools cannot grow the series without bound.
 */
export function createShadowVerdictMeter(options: ShadowVerdictMeterOptions = {}): ShadowVerdictMeter {
  const registry = options.registry ?? new Registry();
  const maxLabelValues = options.maxLabelValues ?? 100;
  const maxActivations = options.maxActivations ?? 10_000;
  const counter = new Counter({
    name: 'awaken_shadow_verdicts_total',
    help: 'Calls the permission rules in shadow mode would have decided otherwise, by tool, rule, shadow verdict and enforced verdict',
    labelNames: ['tool', 'rule', 'shadow', 'enforced'],
    registers: [registry],
  });
  const tool = boundedLabel(maxLabelValues);
  const rule = boundedLabel(maxLabelValues);
  const behavior = (value: string) => (BEHAVIORS.has(value) ? value : 'other');
  // the activation of each run executing here: when it started, the call instances it counted
  const activations = new Map<string, { startedAt: number; counted: Set<string> }>();
  // sub-agent calls in flight: `<parent run>\0<child run>` → when the parent started the child's activation
  const children = new Map<string, number>();

  function snapshot(runId: string, state: Record<string, unknown>): void {
    const list = state[SHADOW_VERDICTS_STATE];
    const activation = activations.get(runId);
    if (!Array.isArray(list) || !activation) return;
    for (const value of list) {
      const verdict = verdictOf(runId, value);
      if (!verdict || verdict.at < activation.startedAt || activation.counted.has(verdict.call)) continue;
      activation.counted.add(verdict.call);
      counter.inc({
        tool: tool(verdict.toolName),
        rule: rule(verdict.rule ?? 'default'),
        shadow: behavior(verdict.behavior),
        enforced: behavior(verdict.enforced),
      });
      try {
        options.onVerdict?.(verdict);
      } catch {
        // a listener never breaks the count
      }
    }
  }

  /**
   * A sub-agent's activation ended: its verdicts are in its own log (the parent's events carry none),
   * read from when the parent started it. Counted like the parent's — from the child's `run_start`
   * on, each call once — and its own sub-agents' likewise.
   */
  function followChild(childRunId: string, since: number, eventLog: RunEventLog): void {
    childActivationEvents(eventLog, childRunId, since).then(
      (events) => observe({ runId: childRunId, events, eventLog }),
      () => {
        // a log that cannot be read now is not counted: the meter never fails a run
      },
    );
  }

  function observe({
    runId,
    events,
    eventLog,
  }: {
    runId: string;
    events: readonly AgentEvent[];
    eventLog?: RunEventLog;
  }): void {
    for (const event of events) {
      if (event.type === 'run_start') {
        activations.delete(runId);
        activations.set(runId, { startedAt: event.at, counted: new Set() });
        if (activations.size > maxActivations) {
          const [oldest] = activations.keys();
          if (oldest !== undefined) activations.delete(oldest);
        }
      } else if (event.type === 'state_snapshot') {
        snapshot(runId, event.state);
      } else if (event.type === 'run_finish') {
        activations.delete(runId);
      } else if (event.type === 'subagent_start') {
        const key = `${runId}\u0000${event.childRunId}`;
        children.delete(key);
        children.set(key, event.at);
        if (children.size > maxActivations) {
          const [oldest] = children.keys();
          if (oldest !== undefined) children.delete(oldest);
        }
      } else if (event.type === 'subagent_finish') {
        const key = `${runId}\u0000${event.childRunId}`;
        const since = children.get(key);
        children.delete(key);
        if (since !== undefined && eventLog) followChild(event.childRunId, since, eventLog);
      }
    }
  }

  return { registry, observe };
}
