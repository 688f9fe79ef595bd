import type { InferenceDraft, TerminationReason, ToolCall } from '@awaken/contract';
import { commitCheckpoint } from './checkpoint';
import { loadBatch } from './tool-batch';
import { runInference } from './inference';
import { failMalformedCalls, reportMalformedCalls, sanitizeToolCalls } from './malformed-calls';
import { baseContext, runHooks } from './plugin-host';
import type { RunSession } from './run-session';
import { evaluateStopConditions, recordStepCalls } from './stop-conditions';

type Stopped = Extract<TerminationReason, { type: 'stopped' }>;

/**
 * StepEnd: hooks (which may stop the run), then — when the loop would continue — the stop
 * conditions in declared order, then the `step_end` event.
 */
export async function runStepEnd(session: RunSession, evaluate: boolean): Promise<Stopped | undefined> {
  let stopped: Stopped | undefined;
  await runHooks(session, 'stepEnd', {
    ...baseContext(session, 'StepEnd'),
    stop(code: string, detail?: string) {
      stopped ??= { type: 'stopped', code, ...(detail === undefined ? {} : { detail }) };
    },
  });
  if (session.run.bookkeeping.stepEnded < session.run.record.steps) recordStepCalls(session);
  session.run.bookkeeping.stepEnded = session.run.record.steps;
  if (evaluate) stopped ??= evaluateStopConditions(session);
  await session.events.emit({ type: 'step_end', step: session.run.record.steps });
  return evaluate ? stopped : undefined;
}

/**
 * One inference step: StepStart → BeforeInference → model → AfterInference → commit the assistant
 * turn. Returns a termination when the step ends the run; otherwise the tool round follows.
 */
export async function runInferenceStep(session: RunSession): Promise<TerminationReason | undefined> {
  if (session.run.status !== 'running') session.run.setStatus('running');
  session.run.record = { ...session.run.record, steps: session.run.record.steps + 1 };
  const step = session.run.record.steps;
  await session.events.emit({ type: 'step_start', step });
  await runHooks(session, 'stepStart', baseContext(session, 'StepStart'));

  const { definition, descriptors } = session.agent;
  const draft: InferenceDraft = {
    system: definition.systemPrompt,
    tools: [...descriptors, ...session.run.clientTools.values()].map((descriptor) => ({ ...descriptor })),
    toolChoice: undefined,
    options: { ...definition.inferenceOptions },
  };
  let skipped: string | undefined;
  await runHooks(session, 'beforeInference', {
    ...baseContext(session, 'BeforeInference'),
    request: draft,
    skipInference(detail?: string) {
      skipped = detail ?? 'inference skipped by a plugin';
    },
  });
  if (skipped !== undefined) {
    await runStepEnd(session, false);
    return { type: 'behavior_requested', detail: skipped };
  }

  const response = await runInference(session, draft);

  let calls: ToolCall[] = response.toolCalls;
  let terminated: string | undefined;
  await runHooks(session, 'afterInference', {
    ...baseContext(session, 'AfterInference'),
    response,
    setToolCalls(next: ToolCall[]) {
      calls = next.map((call) => ({ ...call }));
    },
    terminate(detail?: string) {
      terminated = detail ?? 'terminated by a plugin';
    },
  });
  const sanitized = sanitizeToolCalls(calls, session.services.createId);
  calls = sanitized.calls;
  session.run.addMessage(
    {
      role: 'assistant',
      text: response.text,
      ...(response.reasoning ? { reasoning: response.reasoning } : {}),
      toolCalls: calls,
    },
    step,
  );
  // a new turn's calls start fresh, even when the model reuses an id of an earlier turn (`call_0`)
  for (const call of calls) session.batch.byId.delete(call.id);
  // a text-only turn keeps the previous (answered) batch, so the run record still shows the last round
  const batch = loadBatch(session);
  if (batch.length > 0) session.batch.calls = batch;
  failMalformedCalls(session, sanitized.malformed);
  await commitCheckpoint(session, 'assistant_turn_committed');
  const streamed = new Set(response.toolCalls.map((call) => call.id));
  for (const call of calls) {
    if (!streamed.has(call.id)) {
      await session.events.emit({ type: 'tool_call_start', toolCallId: call.id, toolName: call.name });
    }
    await session.events.emit({
      type: 'tool_call_ready',
      toolCallId: call.id,
      toolName: call.name,
      arguments: call.arguments,
    });
  }
  await reportMalformedCalls(session, sanitized.malformed);
  if (terminated !== undefined) {
    await runStepEnd(session, false);
    return { type: 'behavior_requested', detail: terminated };
  }
  if (calls.length === 0) {
    await runStepEnd(session, false);
    return { type: 'natural_end' };
  }
  return undefined;
}
