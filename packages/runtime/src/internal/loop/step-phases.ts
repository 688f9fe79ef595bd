import type { InferenceDraft, InferenceResponse, ToolCall } from '@awaken/contract';
import { commitCheckpoint } from '../checkpoint/commit-checkpoint';
import { failMalformedCalls, reportMalformedCalls, sanitizeToolCalls } from './malformed-calls';
import { runHooks } from '../plugins/plugin-host';
import type { RunSession } from '../session/run-session';
import { loadBatch } from '../tools/load-batch';

/** What AfterInference left of a model response: the calls to run, and a plugin's terminate. */
export interface AssistantTurn {
  calls: ToolCall[];
  /** Set when a plugin ended the run at AfterInference. */
  terminated?: string;
}

/** StepStart: the step count grows, `step_start` is emitted and the StepStart hooks run. */
export async function stepStart(session: RunSession): Promise<void> {
  const { run } = session;
  if (run.status !== 'running') run.setStatus('running');
  run.record = { ...run.record, steps: run.record.steps + 1 };
  session.events.post({ type: 'step_start', step: run.record.steps });
  await runHooks(session, 'stepStart', {});
}

/**
 * BeforeInference: builds the model request (system prompt, the agent's and the client's tools,
 * options) and lets the hooks change it. Returns the request, or `skipped` when a hook skipped the
 * model call.
 */
export async function beforeInference(session: RunSession): Promise<InferenceDraft | { skipped: string }> {
  const { definition, descriptors, tools } = session.agent;
  // a client tool the agent declares itself is the agent's (after a handoff, the target's)
  const clientTools = [...session.run.clientTools.values()].filter((tool) => !tools.has(tool.name));
  const draft: InferenceDraft = {
    system: definition.systemPrompt,
    tools: [...descriptors, ...clientTools].map((descriptor) => ({ ...descriptor })),
    toolChoice: undefined,
    options: { ...definition.inferenceOptions },
  };
  let skipped: string | undefined;
  await runHooks(session, 'beforeInference', {
    request: draft,
    skipInference(detail?: string) {
      skipped = detail ?? 'inference skipped by a plugin';
    },
  });
  return skipped === undefined ? draft : { skipped };
}

/** AfterInference: the hooks may replace the tool calls or end the run. */
export async function afterInference(
  session: RunSession,
  response: InferenceResponse,
): Promise<AssistantTurn> {
  const turn: AssistantTurn = { calls: response.toolCalls };
  await runHooks(session, 'afterInference', {
    response,
    setToolCalls(next: ToolCall[]) {
      turn.calls = next.map((call) => ({ ...call }));
    },
    terminate(detail?: string) {
      turn.terminated = detail ?? 'terminated by a plugin';
    },
  });
  return turn;
}

/**
 * Commits the assistant turn (the `assistant_turn_committed` checkpoint): the message with its
 * sanitized tool calls joins the history, its calls become the batch (fresh, even when the model
 * reuses an id of an earlier turn), malformed calls fail durably; then each call is announced
 * (`tool_call_ready`). Returns the calls the tool round runs.
 */
export async function commitAssistantTurn(
  session: RunSession,
  response: InferenceResponse,
  turn: AssistantTurn,
): Promise<ToolCall[]> {
  const sanitized = sanitizeToolCalls(turn.calls, session.services.createId);
  const { calls } = sanitized;
  session.run.addMessage(
    {
      role: 'assistant',
      text: response.text,
      ...(response.reasoning ? { reasoning: response.reasoning } : {}),
      toolCalls: calls,
    },
    session.run.record.steps,
  );
  for (const call of calls) session.batch.byId.delete(call.id);
  // a text-only turn keeps the previous (answered) batch, so the run record still shows the last round
  const batch = loadBatch(session);
  if (batch.length > 0) session.batch.calls = batch;
  failMalformedCalls(session, sanitized.malformed);
  await commitCheckpoint(session, 'assistant_turn_committed');
  const streamed = new Set(response.toolCalls.map((call) => call.id));
  for (const call of calls) {
    if (!streamed.has(call.id)) {
      session.events.post({ type: 'tool_call_start', toolCallId: call.id, toolName: call.name });
    }
    session.events.post({
      type: 'tool_call_ready',
      toolCallId: call.id,
      toolName: call.name,
      arguments: call.arguments,
    });
  }
  await reportMalformedCalls(session, sanitized.malformed);
  return calls;
}
