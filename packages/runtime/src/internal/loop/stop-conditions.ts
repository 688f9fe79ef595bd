import { assertNever } from '@awaken/contract';
import type { StopConditionSpec, TerminationReason } from '@awaken/contract';
import { handOffAtStepEnd } from '../handoff/hand-off';
import { runHooks } from '../plugins/plugin-host';
import type { RunSession } from '../session/run-session';

type Stopped = Extract<TerminationReason, { type: 'stopped' }>;

function stableStringify(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableStringify).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${stableStringify(item)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'undefined';
}

const RECENT_LIMIT = 256;

/**
 * Folds the finished calls of the current step into the run's bounded counters (once per step, at
 * StepEnd): consecutive failed results and the latest call signatures.
 */
function recordStepCalls(session: RunSession): void {
  const { bookkeeping } = session.run;
  for (const call of session.batch.calls) {
    if (call.step !== session.run.record.steps) continue;
    if (call.status === 'failed') bookkeeping.consecutiveErrors += 1;
    else if (call.status === 'succeeded') bookkeeping.consecutiveErrors = 0;
    bookkeeping.recentCalls.push(`${call.toolName}:${stableStringify(call.arguments)}`);
  }
  if (bookkeeping.recentCalls.length > RECENT_LIMIT) {
    bookkeeping.recentCalls.splice(0, bookkeeping.recentCalls.length - RECENT_LIMIT);
  }
}

function repeatedCall(session: RunSession, window: number): string | undefined {
  const recent = session.run.bookkeeping.recentCalls;
  const inStep = session.batch.calls.filter((call) => call.step === session.run.record.steps).length;
  for (let index = recent.length - 1; index >= recent.length - inStep && index >= 0; index -= 1) {
    const earlier = recent.slice(Math.max(0, index - window + 1), index);
    if (earlier.includes(recent[index] as string)) return (recent[index] as string).split(':')[0];
  }
  return undefined;
}

function check(session: RunSession, spec: StopConditionSpec): string | undefined {
  const { record } = session.run;
  switch (spec.type) {
    case 'max_rounds':
      return record.steps >= spec.rounds ? `reached ${record.steps} of ${spec.rounds} rounds` : undefined;
    case 'timeout': {
      const elapsed = session.now() - session.activation.startedAt;
      return elapsed >= spec.seconds * 1000 ? `ran ${elapsed} ms, limit ${spec.seconds} s` : undefined;
    }
    case 'token_budget': {
      const used = record.usage.inputTokens + record.usage.outputTokens;
      return used >= spec.maxTotal ? `used ${used} of ${spec.maxTotal} tokens` : undefined;
    }
    case 'consecutive_errors': {
      const count = session.run.bookkeeping.consecutiveErrors;
      return count >= spec.max ? `${count} consecutive failed tool calls` : undefined;
    }
    case 'stop_on_tool': {
      const ran = session.batch.calls.some(
        (call) =>
          call.toolName === spec.toolName && (call.status === 'succeeded' || call.status === 'failed'),
      );
      return ran ? `tool ${spec.toolName} was called` : undefined;
    }
    case 'content_match': {
      const text = session.run.lastAssistantText() ?? '';
      return new RegExp(spec.pattern, spec.flags).test(text)
        ? `assistant text matched /${spec.pattern}/`
        : undefined;
    }
    case 'loop_detection': {
      const toolName = repeatedCall(session, spec.window);
      return toolName
        ? `${toolName} repeated with the same arguments within ${spec.window} calls`
        : undefined;
    }
    default:
      return assertNever(spec, 'stop condition');
  }
}

/** Evaluates the agent's stop conditions in declared order; the first match wins. */
function evaluateStopConditions(session: RunSession): Stopped | undefined {
  for (const spec of session.agent.stopConditions) {
    const detail = check(session, spec);
    if (detail !== undefined) return { type: 'stopped', code: spec.type, detail };
  }
  return undefined;
}

/**
 * StepEnd: the hooks (which may stop the run), then — with `evaluate`, when the loop would go on —
 * the stop conditions in declared order (first match wins), then the `step_end` event and, when a
 * handoff call of the step took effect, the handoff to its agent. Once per step, the step's finished
 * calls are folded into the counters the stop conditions read.
 */
export async function stepEnd(
  session: RunSession,
  options: { evaluate: boolean },
): Promise<Stopped | undefined> {
  const { run } = session;
  let stopped: Stopped | undefined;
  await runHooks(session, 'stepEnd', {
    stop(code: string, detail?: string) {
      stopped ??= { type: 'stopped', code, ...(detail === undefined ? {} : { detail }) };
    },
  });
  if (run.bookkeeping.stepEnded < run.record.steps) recordStepCalls(session);
  run.bookkeeping.stepEnded = run.record.steps;
  if (options.evaluate) stopped ??= evaluateStopConditions(session);
  // goes out with the next write (the next step's events or a checkpoint), not alone
  session.events.postWithNext({ type: 'step_end', step: run.record.steps });
  handOffAtStepEnd(session);
  return options.evaluate ? stopped : undefined;
}
