import type { RunEvent } from './timeline';

/** A child run a run's tool call started (a sub-agent), as the run's events name it. */
export interface ChildRun {
  childRunId: string;
  childThreadId: string;
  agentId: string;
  agentPath: string[];
  /** The parent's call that started it. */
  toolCallId: string;
  /** How its latest inline activation ended (`subagent_finish`), or `running` while one is open. */
  lastActivation: 'running' | 'done' | 'waiting' | 'detached' | 'failed';
  /** The seq of its latest `subagent_start` / `subagent_finish`: a change means its record changed. */
  seq: number;
}

/** The child runs of a run, in the order they started, from its `subagent_start` / `subagent_finish` events. */
export function childRunsOf(events: RunEvent[]): ChildRun[] {
  const children = new Map<string, ChildRun>();
  for (const event of events) {
    if (event.type === 'subagent_start') {
      children.set(event.childRunId, {
        childRunId: event.childRunId,
        childThreadId: event.childThreadId,
        agentId: event.agentId,
        agentPath: Array.isArray(event.agentPath) ? event.agentPath : [event.agentId],
        toolCallId: event.toolCallId,
        lastActivation: 'running',
        seq: event.seq,
      });
    } else if (event.type === 'subagent_finish') {
      const known = children.get(event.childRunId);
      if (known) children.set(event.childRunId, { ...known, lastActivation: event.status, seq: event.seq });
    }
  }
  return [...children.values()];
}

/** `demo › janitor › delete_file`: the agents from the top-level run's down, then the tool. */
export function agentPathLabel(agentPath: readonly string[], toolName?: string): string {
  return [...agentPath, ...(toolName ? [toolName] : [])].join(' › ');
}
