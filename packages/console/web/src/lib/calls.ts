import type { RunEvent } from './timeline';

/** One model call or tool call of a run, with what went in and what came out. */
export interface CallView {
  /** The id of the call's timeline lane: `model-<seq>` or `tool-<toolCallId>`. */
  id: string;
  kind: 'model' | 'tool';
  name: string;
  step?: number;
  /** succeeded / failed / denied / expired / cancelled / waiting / running (a model call: its finish reason). */
  status: string;
  startedAt: number;
  endedAt?: number;
  /** How long it ran: a model call's duration; a tool call's time from ready to done, less its waits. */
  durationMs?: number;
  /** How long a tool call waited for a human (or a client). */
  waitedMs?: number;
  tokens?: { inputTokens: number; outputTokens: number; totalTokens: number };
  /**
   * A tool call: its arguments. A model call: what it read that the previous one had not — the run's
   * input before its first call, the results of the tool calls since.
   */
  input?: unknown;
  /** A tool call: its result's output. A model call: its text and the tool calls it asked for. */
  output?: unknown;
  error?: string;
  /** Who decided the call and how (a tool call that waited). */
  decision?: string;
}

function errorOf(event: RunEvent): string | undefined {
  const result = event.result as { status?: string; message?: string } | undefined;
  if (result?.status === 'error' || result?.status === 'warning') return result.message;
  if (event.status === 'succeeded') return undefined;
  const content = event.content;
  if (typeof content === 'string') return content;
  if (content && typeof content === 'object' && typeof (content as { error?: unknown }).error === 'string')
    return (content as { error: string }).error;
  return content === undefined ? event.status : JSON.stringify(content);
}

function refused(decision: any): boolean {
  const result = decision?.result;
  if (result && typeof result === 'object' && 'approved' in result) return !result.approved;
  return decision?.action === 'cancel';
}

/**
 * The calls of a run from its events, in the order they started: each model call (from its
 * `inference_complete`, with the text and tool calls streamed before it) and each tool call (from
 * `tool_call_ready` to `tool_call_done`, its waits for a decision apart). `runInput` is what the
 * run's first model call read (the user's message). Calls still open end at `now`.
 */
export function buildCalls(events: RunEvent[], now: number, runInput?: unknown): CallView[] {
  const calls: CallView[] = [];
  const tools = new Map<string, CallView & { waitingSince?: number; deniedBy?: boolean }>();
  let text = '';
  let asked: Array<{ id: string; name: string; arguments?: unknown }> = [];
  let fresh: unknown[] = runInput === undefined ? [] : [runInput];
  for (const event of events) {
    switch (event.type) {
      case 'text_delta':
        text += event.delta ?? '';
        break;
      case 'tool_call_start':
        if (!asked.some((call) => call.id === event.toolCallId))
          asked.push({ id: event.toolCallId, name: event.toolName });
        break;
      case 'inference_complete': {
        const startedAt = event.at - (event.durationMs ?? 0);
        calls.push({
          id: `model-${event.seq}`,
          kind: 'model',
          name: event.model ? `model ${event.model}` : 'model',
          step: event.step,
          status: event.finishReason,
          startedAt,
          endedAt: event.at,
          durationMs: event.durationMs,
          ...(event.usage ? { tokens: event.usage } : {}),
          ...(fresh.length > 0 ? { input: fresh.length === 1 ? fresh[0] : fresh } : {}),
          output: {
            ...(text ? { text } : {}),
            ...(asked.length > 0 ? { toolCalls: asked.map(({ name }) => name) } : {}),
          },
          ...(event.finishReason === 'error' ? { error: 'the model call failed' } : {}),
        });
        text = '';
        asked = [];
        fresh = [];
        break;
      }
      case 'tool_call_ready': {
        const existing = tools.get(event.toolCallId);
        if (existing) {
          existing.input = event.arguments ?? existing.input;
          break;
        }
        const call: CallView = {
          id: `tool-${event.toolCallId}`,
          kind: 'tool',
          name: event.toolName,
          status: 'running',
          startedAt: event.at,
          input: event.arguments ?? {},
        };
        tools.set(event.toolCallId, call);
        calls.push(call);
        break;
      }
      case 'tool_call_suspended': {
        const call = tools.get(event.toolCallId);
        if (!call) break;
        call.status = 'waiting';
        call.waitingSince = event.at;
        break;
      }
      case 'tool_call_resumed': {
        const call = tools.get(event.toolCallId);
        if (!call) break;
        if (call.waitingSince !== undefined) {
          call.waitedMs = (call.waitedMs ?? 0) + (event.at - call.waitingSince);
          call.waitingSince = undefined;
        }
        call.status = 'running';
        if (refused(event.decision)) call.deniedBy = true;
        break;
      }
      case 'decision_recorded': {
        const record = event.record as { toolCallId?: string; decidedBy?: string; channel?: string };
        const call = record?.toolCallId ? tools.get(record.toolCallId) : undefined;
        if (call)
          call.decision = `${record.decidedBy ?? 'someone'}${record.channel ? ` via ${record.channel}` : ''}`;
        break;
      }
      case 'tool_call_done': {
        const call = tools.get(event.toolCallId);
        if (!call) break;
        if (call.waitingSince !== undefined) {
          call.waitedMs = (call.waitedMs ?? 0) + (event.at - call.waitingSince);
          call.waitingSince = undefined;
        }
        call.status = event.status === 'cancelled' && call.deniedBy ? 'denied' : event.status;
        call.endedAt = event.at;
        call.durationMs = Math.max(0, event.at - call.startedAt - (call.waitedMs ?? 0));
        const result = event.result as { output?: unknown } | undefined;
        const output = result && 'output' in result ? result.output : event.content;
        if (event.status === 'succeeded') call.output = output ?? null;
        else {
          const error = errorOf(event);
          if (error !== undefined) call.error = error;
          if (result?.output !== undefined) call.output = result.output;
        }
        // what the next model call reads
        fresh.push({ tool: event.toolName, [event.status]: event.content ?? output ?? null });
        break;
      }
    }
  }
  for (const call of calls) {
    if (call.endedAt !== undefined) continue;
    const open = call as CallView & { waitingSince?: number };
    const waited = open.waitingSince === undefined ? 0 : now - open.waitingSince;
    if (waited > 0) call.waitedMs = (call.waitedMs ?? 0) + waited;
    call.durationMs = Math.max(0, now - call.startedAt - (call.waitedMs ?? 0));
  }
  return calls.map(({ ...call }) => {
    const {
      waitingSince: _w,
      deniedBy: _d,
      ...view
    } = call as CallView & {
      waitingSince?: number;
      deniedBy?: boolean;
    };
    return view;
  });
}
