/** A run event as the API streams it (the contract's AgentEvent, read loosely). */
export type RunEvent = { type: string; seq: number; at: number; [key: string]: any };

/** A stretch of one bar: from, to and the state it shows. */
export interface Segment {
  from: number;
  to: number;
  state:
    | 'running'
    | 'suspended'
    | 'succeeded'
    | 'failed'
    | 'cancelled'
    | 'denied'
    | 'expired'
    | 'waiting'
    | 'done';
}

/** One row of the timeline. */
export interface Lane {
  id: string;
  kind: 'activation' | 'step' | 'model' | 'tool' | 'subagent' | 'handoff';
  label: string;
  segments: Segment[];
  detail?: string;
  /** Where the lane leads (a sub-agent lane: its child run's page). */
  href?: string;
}

/** A decision a human (or client) made, with who made it. */
export interface DecisionMark {
  at: number;
  toolCallId: string;
  verdict: string;
  by?: string;
  reason?: string;
}

/** True when a decision refused its call (a deny, or a cancel answering an approval). */
function refuses(decision: any): boolean {
  const result = decision?.result;
  if (result && typeof result === 'object' && 'approved' in result) return !result.approved;
  return decision?.action === 'cancel';
}

/** How an activation ended: waiting, done, or failed / cancelled (not the green of a natural end). */
function activationState(event: RunEvent): Segment['state'] {
  if (event.status === 'waiting') return 'waiting';
  const type = event.termination?.type;
  if (type === 'error' || type === 'blocked') return 'failed';
  if (type === 'cancelled') return 'cancelled';
  return 'done';
}

function verdictOf(decision: any): string {
  if (refuses(decision)) return 'denied';
  const result = decision?.result;
  if (result && typeof result === 'object' && 'approved' in result) {
    if (!result.approved) return 'denied';
    return result.editedArguments !== undefined ? 'approved with edits' : 'approved';
  }
  return result === undefined ? 'resumed' : `answered ${JSON.stringify(result)}`;
}

function whoDecided(decision: any): string | undefined {
  const caller = decision?.context?.caller;
  if (caller && typeof caller === 'object') {
    return caller.subject && caller.subject !== caller.tenant
      ? `${caller.subject} (${caller.tenant})`
      : caller.tenant;
  }
  return undefined;
}

/** How a child's inline activation ended (`subagent_finish`), drawn on its lane. */
function childState(event: RunEvent): Segment['state'] {
  if (event.status === 'failed') return 'failed';
  if (event.status === 'done')
    return activationState(event) === 'done' ? 'succeeded' : activationState(event);
  return 'waiting';
}

/**
 * The lanes of a run's timeline from its events: activations (run_start → run_finish), steps, model
 * calls (inference_complete, drawn back over its duration) and tool calls (running → suspended →
 * resumed → succeeded / failed / cancelled); a bar still open ends at `now`. A call that delegates has
 * a sub-agent lane under it (each inline activation of the child, waiting between them, linking to
 * the child run), and a handoff is a lane of its own (`from → to`).
 */
export function buildTimeline(events: RunEvent[], now: number) {
  const lanes: Lane[] = [];
  const decisions: DecisionMark[] = [];
  const open = new Map<string, Lane>();
  const denied = new Set<string>();
  let activation = 0;
  const close = (lane: Lane | undefined, at: number, state?: Segment['state']) => {
    const last = lane?.segments.at(-1);
    if (!last) return;
    last.to = at;
    if (state) last.state = state;
  };
  for (const event of events) {
    switch (event.type) {
      case 'run_start': {
        // an activation still open when the next starts never finished: its process stopped
        const previous = open.get('activation');
        if (previous) {
          close(previous, event.at, 'failed');
          previous.detail = 'interrupted (its process stopped)';
          for (const [key, lane] of open) {
            if (!key.startsWith('step-')) continue;
            close(lane, event.at, 'failed');
            open.delete(key);
          }
        }
        activation += 1;
        const lane: Lane = {
          id: `act-${activation}`,
          kind: 'activation',
          label: event.resumed ? `activation ${activation} (resumed)` : `activation ${activation}`,
          segments: [{ from: event.at, to: now, state: 'running' }],
        };
        lanes.push(lane);
        open.set('activation', lane);
        break;
      }
      case 'run_finish': {
        const lane = open.get('activation');
        close(lane, event.at, activationState(event));
        if (lane)
          lane.detail = `${event.status}${event.termination?.type ? ` · ${event.termination.type}` : ''}`;
        open.delete('activation');
        break;
      }
      case 'step_start': {
        const lane: Lane = {
          id: `step-${event.seq}`,
          kind: 'step',
          label: `step ${event.step}`,
          segments: [{ from: event.at, to: now, state: 'running' }],
        };
        lanes.push(lane);
        open.set(`step-${event.step}`, lane);
        break;
      }
      case 'step_end':
        close(open.get(`step-${event.step}`), event.at, 'succeeded');
        open.delete(`step-${event.step}`);
        break;
      case 'inference_complete':
        lanes.push({
          id: `model-${event.seq}`,
          kind: 'model',
          label: `model ${event.model ?? ''}`.trim(),
          segments: [
            {
              from: event.at - (event.durationMs ?? 0),
              to: event.at,
              state: event.finishReason === 'error' ? 'failed' : 'succeeded',
            },
          ],
          detail: `${event.finishReason} · ${event.usage?.totalTokens ?? 0} tokens`,
        });
        break;
      case 'tool_call_start':
      case 'tool_call_ready': {
        if (open.has(`tool-${event.toolCallId}`)) break;
        const lane: Lane = {
          id: `tool-${event.toolCallId}`,
          kind: 'tool',
          label: event.toolName,
          segments: [{ from: event.at, to: now, state: 'running' }],
        };
        lanes.push(lane);
        open.set(`tool-${event.toolCallId}`, lane);
        break;
      }
      case 'tool_call_suspended': {
        const lane = open.get(`tool-${event.toolCallId}`);
        close(lane, event.at);
        lane?.segments.push({ from: event.at, to: now, state: 'suspended' });
        break;
      }
      case 'tool_call_resumed': {
        const lane = open.get(`tool-${event.toolCallId}`);
        close(lane, event.at);
        lane?.segments.push({ from: event.at, to: now, state: 'running' });
        if (refuses(event.decision)) denied.add(event.toolCallId);
        decisions.push({
          at: event.at,
          toolCallId: event.toolCallId,
          verdict: verdictOf(event.decision),
          ...(whoDecided(event.decision) ? { by: whoDecided(event.decision) } : {}),
          ...(event.decision?.reason ? { reason: event.decision.reason } : {}),
        });
        break;
      }
      case 'tool_call_done': {
        const lane = open.get(`tool-${event.toolCallId}`);
        // a call a human refused ends `cancelled`: it is drawn (and named) denied
        const state = event.status === 'cancelled' && denied.has(event.toolCallId) ? 'denied' : event.status;
        close(lane, event.at, state);
        if (lane) lane.detail = state;
        open.delete(`tool-${event.toolCallId}`);
        break;
      }
      case 'subagent_start': {
        const key = `sub-${event.childRunId}`;
        const known = open.get(key);
        if (known) {
          close(known, event.at);
          known.segments.push({ from: event.at, to: now, state: 'running' });
          known.detail = 'running';
          break;
        }
        const lane: Lane = {
          id: key,
          kind: 'subagent',
          label: `↳ ${event.agentId}`,
          segments: [{ from: event.at, to: now, state: 'running' }],
          detail: 'running',
          href: `#/run/${encodeURIComponent(event.childRunId)}`,
        };
        // under the call that started it (after the sub-agent lanes already there)
        let at = lanes.findIndex((other) => other.id === `tool-${event.toolCallId}`);
        if (at < 0) at = lanes.length - 1;
        while (lanes[at + 1]?.kind === 'subagent') at += 1;
        lanes.splice(at + 1, 0, lane);
        open.set(key, lane);
        break;
      }
      case 'subagent_finish': {
        const lane = open.get(`sub-${event.childRunId}`);
        if (!lane) break;
        const state = childState(event);
        close(lane, event.at, state === 'waiting' ? undefined : state);
        lane.detail = `${event.status}${event.termination?.type && event.status === 'done' ? ` · ${event.termination.type}` : ''}`;
        // waiting (or detached) until its next activation: drawn waiting, still open
        if (state === 'waiting') lane.segments.push({ from: event.at, to: now, state: 'suspended' });
        break;
      }
      case 'handoff':
        lanes.push({
          id: `handoff-${event.seq}`,
          kind: 'handoff',
          label: `${event.fromAgentId} → ${event.toAgentId}`,
          segments: [{ from: event.at, to: event.at, state: 'done' }],
          detail: event.reason ? `handoff: ${event.reason}` : `handoff after step ${event.step}`,
        });
        break;
    }
  }
  const times = lanes.flatMap((lane) => lane.segments.flatMap((segment) => [segment.from, segment.to]));
  const start = times.length > 0 ? Math.min(...times) : now;
  const end = times.length > 0 ? Math.max(...times, start + 1) : now + 1;
  return { lanes, decisions, start, end };
}
