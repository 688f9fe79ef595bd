import {
  type AgentEvent,
  type ClientTool,
  type ModelExecutor,
  type RunContext,
  type RunRecording,
  type RunStatus,
  type ToolCallDecision,
  type ToolCallDecisionInput,
  type ToolCallState,
  type UserMessage,
  parseRunRecording,
} from '@awaken/contract';
import { type ReplayDivergence, firstDivergence } from './compare-events';
import { createRecordedModel, recordedTurns } from './recorded-model';
import { RecordedToolResults, recordedTools } from './recorded-tools';

/** What a replay needs of an agent definition (`AgentDefinition` of `@awaken/runtime` fits). */
export interface ReplayableAgent {
  id: string;
  model?: ModelExecutor;
  tools?: unknown;
}

/** A run activation as the replay drives it (`RunHandle` of `@awaken/runtime` fits). */
export interface ReplayRunHandle {
  readonly events: AsyncIterable<AgentEvent>;
  readonly result: Promise<{ status: RunStatus }>;
}

/** The runtime a replay drives (`AgentRuntime` of `@awaken/runtime` fits). */
export interface ReplayRuntime {
  run(request: {
    agentId: string;
    runId: string;
    threadId: string;
    input: UserMessage[];
    context?: RunContext;
    tools?: ClientTool[];
  }): ReplayRunHandle;
  resumeRun(runId: string, options: { decisions: ToolCallDecisionInput[] }): ReplayRunHandle;
  shutdown(): Promise<void>;
}

/** Options of {@link replayRun}. */
export interface ReplayOptions<A extends ReplayableAgent, S> {
  /**
   * Creates the runtime (pass `createAgentRuntime` of `@awaken/runtime`: `@awaken/testing` does not
   * depend on the runtime). It gets the agents with the recorded model (and recorded tools), fresh
   * stores and an `onStateChange` the replay uses.
   */
  createRuntime: (options: {
    agents: A[];
    stores: S;
    onStateChange: (snapshot: { calls: ToolCallState[] }) => void;
  }) => ReplayRuntime;
  /** Fresh stores for the replay (pass `createMemoryStores` of `@awaken/store-memory`). */
  createStores: () => S;
  /**
   * `recorded` (default): every tool execution returns the result the recording holds for that call
   * (nothing real runs). `live`: the agents' tools execute for real, so a changed tool shows as a
   * divergence.
   */
  tools?: 'recorded' | 'live';
  /** Other agents the run may reach (a handoff target), defined as now. */
  agents?: A[];
}

/** What {@link replayRun} found. */
export interface ReplayReport {
  runId: string;
  agentId: string;
  /** True when every event matched (ignored fields aside, see `REPLAY_IGNORED_FIELDS`). */
  ok: boolean;
  /** The first difference, when not ok. */
  divergence?: ReplayDivergence;
  recordedEvents: number;
  replayedEvents: AgentEvent[];
  /** Model calls the replay made; all were answered from the recording (never a provider). */
  modelCalls: number;
  /** Tool executions answered from the recording (`tools: 'recorded'`). */
  recordedToolExecutions: number;
  /** Activations driven: the first run, then one resume per later recorded activation. */
  activations: number;
}

/** The decisions a recorded activation applied, addressed by tool call id (ticket ids are regenerated). */
function decisionsOf(activation: readonly AgentEvent[]): ToolCallDecisionInput[] {
  return activation.flatMap((event) => {
    if (event.type !== 'tool_call_resumed') return [];
    const { ticketId: _ticketId, ...decision } = event.decision as ToolCallDecision;
    return [decision];
  });
}

function activationsOf(events: readonly AgentEvent[]): AgentEvent[][] {
  const activations: AgentEvent[][] = [];
  for (const event of events) {
    if (event.type === 'run_start' || activations.length === 0) activations.push([]);
    activations.at(-1)?.push(event);
  }
  return activations;
}

async function drain(handle: ReplayRunHandle, into: AgentEvent[]): Promise<RunStatus | undefined> {
  try {
    for await (const event of handle.events) into.push(event);
    return (await handle.result).status;
  } catch {
    // a replay that fails shows as a divergence of its events
    await handle.result.catch(() => undefined);
    return undefined;
  }
}

/**
 * Replays a recorded run (a `RunRecording`, or its NDJSON text as `GET /v1/runs/:id/recording`
 * returns it) in fresh stores with `agent` as defined now: every model call is answered by the
 * recording's model turns (the agent's own model is never called), tools are answered from the
 * recording (default) or executed for real (`tools: 'live'`), the run gets the recorded input,
 * context and client tools under the recorded run and thread ids, and each later recorded activation
 * is driven by resuming with the decisions it applied. Resolves with the first event where the
 * replay differs from the recording (ignoring `REPLAY_IGNORED_FIELDS`). Throws `validation_failed`
 * for a malformed recording (see `parseRunRecording`).
 *
 * Not replayed: runs with sub-agent calls (a child run's events are in its own log) and tickets that
 * expired (a replay does not wait for a deadline).
 */
export async function replayRun<A extends ReplayableAgent, S>(
  recording: RunRecording | string,
  agent: A,
  options: ReplayOptions<A, S>,
): Promise<ReplayReport> {
  const { header, events } = typeof recording === 'string' ? parseRunRecording(recording) : recording;
  const model = createRecordedModel(recordedTurns(events));
  const results = new RecordedToolResults(events);
  const live = options.tools === 'live';
  const prepare = (definition: A): A => ({
    ...definition,
    model,
    ...(live || definition.tools === undefined ? {} : { tools: recordedTools(definition.tools, results) }),
  });
  const agents = [agent, ...(options.agents ?? []).filter((other) => other.id !== agent.id)].map(prepare);
  const runtime = options.createRuntime({
    agents,
    stores: options.createStores(),
    onStateChange: (snapshot) => results.observe(snapshot.calls),
  });
  const replayed: AgentEvent[] = [];
  const recordedActivations = activationsOf(events);
  let activations = 0;
  try {
    let status = await drain(
      runtime.run({
        agentId: header.agentId,
        runId: header.runId,
        threadId: header.threadId,
        input: header.input,
        ...(header.context ? { context: header.context } : {}),
        ...(header.clientTools ? { tools: header.clientTools } : {}),
      }),
      replayed,
    );
    activations = 1;
    while (status === 'waiting' && activations < recordedActivations.length) {
      const decisions = decisionsOf(recordedActivations[activations] ?? []);
      activations += 1;
      status = await drain(runtime.resumeRun(header.runId, { decisions }), replayed);
    }
  } finally {
    await runtime.shutdown();
  }
  const divergence = firstDivergence(events, replayed);
  return {
    runId: header.runId,
    agentId: header.agentId,
    ok: divergence === undefined,
    ...(divergence ? { divergence } : {}),
    recordedEvents: events.length,
    replayedEvents: replayed,
    modelCalls: model.callCount,
    recordedToolExecutions: results.executions,
    activations,
  };
}
