import {
  AwakenError,
  EMPTY_USAGE,
  type FinishReason,
  type InferenceDraft,
  type InferenceResponse,
  type TokenUsage,
  type ToolCall,
  addUsage,
  assertNever,
  findJsonIssue,
  formatZodIssues,
  tokenUsageSchema,
} from '@awaken/contract';
import type { RunSession } from '../session/run-session';
import { streamedBlock } from './streamed-block';

/**
 * The usage a model reported, as the run record holds it (counts are integers >= 0), or
 * `validation_failed` naming the count: the stores' trusted path checks nothing after the runtime,
 * and a record failing its own schema could not be read back.
 */
function checkedUsage(usage: TokenUsage): TokenUsage {
  const parsed = tokenUsageSchema.safeParse(usage);
  if (parsed.success) return parsed.data;
  const field = ['usage', ...(parsed.error.issues[0]?.path ?? []).map(String)].join('.');
  throw new AwakenError('validation_failed', `model usage: ${formatZodIssues(parsed.error.issues)}`, {
    details: { field },
  });
}

/**
 * Parses tool call input JSON. Unparseable text, and JSON that could not be stored again (nested
 * beyond the depth limit), is kept as the raw string: the tool round fails the call with the reason.
 */
export function parseToolInput(input: string): unknown {
  if (input.trim() === '') return {};
  try {
    const parsed: unknown = JSON.parse(input);
    return findJsonIssue(parsed) ? input : parsed;
  } catch {
    return input;
  }
}

/**
 * Streams one inference, forwarding text / reasoning / tool call deltas as events, then reports it
 * with `inference_complete` and adds its usage to the run. A cut stream (abort or model error) still
 * closes its open text / reasoning block and reports `inference_complete` (finish reason `aborted` or
 * `error`, with the usage known so far) before the error propagates. Deltas are collected per block
 * and joined once (`streamedBlock`). The stream's events are posted, not awaited, so a burst shares
 * one event-log append; `inference_complete` is awaited, so every earlier event is logged — or its
 * append's failure thrown — before the inference returns.
 */
export async function runInference(
  session: RunSession,
  draft: InferenceDraft,
): Promise<InferenceResponse & { model?: string; durationMs: number }> {
  const started = session.now();
  const text = streamedBlock(session, 'text');
  const reasoning = streamedBlock(session, 'reasoning');
  const toolCalls: ToolCall[] = [];
  let usage: TokenUsage = EMPTY_USAGE;
  let finishReason: FinishReason = 'unknown';
  let model: string | undefined = session.agent.model.modelId;

  // every inference reports once, also when its stream is cut (cancel, timeout, model error), with
  // whatever usage it had; the run's usage includes it
  const complete = async (reason: string) => {
    session.run.record = { ...session.run.record, usage: addUsage(session.run.record.usage, usage) };
    session.events.post({
      type: 'inference_complete',
      step: session.run.record.steps,
      ...(model === undefined ? {} : { model }),
      usage,
      durationMs: Math.max(0, session.now() - started),
      finishReason: reason,
    });
  };
  try {
    const stream = session.agent.model.stream({
      ...(draft.system === undefined ? {} : { system: draft.system }),
      messages: session.run.messages.slice(),
      tools: draft.tools,
      ...(draft.toolChoice === undefined ? {} : { toolChoice: draft.toolChoice }),
      options: draft.options,
      signal: session.activation.signal,
    });
    for await (const part of stream) {
      switch (part.type) {
        case 'reasoning_delta':
          reasoning.append(part.delta);
          break;
        case 'text_delta':
          reasoning.close();
          text.append(part.delta);
          break;
        case 'tool_call_start':
          reasoning.close();
          text.close();
          session.events.post({
            type: 'tool_call_start',
            toolCallId: part.toolCallId,
            toolName: part.toolName,
          });
          break;
        case 'tool_call_args_delta':
          session.events.post({
            type: 'tool_call_args_delta',
            toolCallId: part.toolCallId,
            delta: part.delta,
          });
          break;
        case 'tool_call':
          toolCalls.push({ id: part.toolCallId, name: part.toolName, arguments: parseToolInput(part.input) });
          break;
        case 'finish':
          usage = checkedUsage(part.usage);
          finishReason = part.finishReason;
          if (part.model) model = part.model;
          break;
        default:
          assertNever(part, 'inference stream part');
      }
    }
    session.activation.signal.throwIfAborted();
  } catch (error) {
    reasoning.close();
    text.close();
    await complete(session.activation.signal.aborted ? 'aborted' : 'error');
    throw error;
  }
  reasoning.close();
  text.close();
  await complete(finishReason);
  return {
    text: text.text(),
    reasoning: reasoning.text(),
    toolCalls,
    usage,
    finishReason,
    ...(model === undefined ? {} : { model }),
    durationMs: Math.max(0, session.now() - started),
  };
}
