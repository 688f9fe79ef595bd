import {
  AwakenError,
  EMPTY_USAGE,
  type AgentEvent,
  type Message,
  type RunContext,
  type RunRecord,
  type RunRequestOrigin,
  type UserMessage,
} from '@awaken/contract';
import type { EventChannel } from './event-channel';
import { restorePluginState } from './plugin-host';
import type { ResolvedAgent } from './resolve-agents';
import { type RuntimeServices, RunSession } from './run-session';
import type { StoredClientTool } from './run-request';
import { decodeRunState, encodeRunState } from './run-state';
import type { WakeSignal } from './wake-signal';

export interface SessionPlumbing {
  services: RuntimeServices;
  channel: EventChannel<AgentEvent>;
  wake: WakeSignal;
  runController: AbortController;
}

async function readHistory(services: RuntimeServices, threadId: string): Promise<Message[]> {
  const records = await services.store.readMessages(threadId);
  return records.map((record) => record.message);
}

function build(
  plumbing: SessionPlumbing,
  agent: ResolvedAgent,
  record: RunRecord,
  messages: Message[],
  threadState: Record<string, unknown>,
  lastSeq: number,
): RunSession {
  const decoded = decodeRunState(record);
  decoded.bookkeeping.lastSeq = Math.max(decoded.bookkeeping.lastSeq, lastSeq);
  const session = new RunSession({
    ...plumbing,
    agent,
    record,
    messages,
    calls: decoded.calls,
    pendingDecisions: decoded.pendingDecisions,
    bookkeeping: decoded.bookkeeping,
    threadState,
  });
  restorePluginState(session);
  return session;
}

/** Creates the thread when missing and the run record (status `created`, input kept in its state). */
export async function createSession(
  plumbing: SessionPlumbing,
  agent: ResolvedAgent,
  request: {
    runId: string;
    threadId: string;
    input: UserMessage[];
    origin: RunRequestOrigin;
    clientTools?: StoredClientTool[];
    context?: RunContext;
  },
): Promise<RunSession> {
  const { store, now } = plumbing.services;
  const thread = await store.getThread(request.threadId);
  if (!thread) await store.createThread({ id: request.threadId });
  const at = now();
  const bookkeeping = {
    lastSeq: 0,
    decisionIds: [],
    input: request.input,
    inputCommitted: false,
    stepEnded: 0,
    consecutiveErrors: 0,
    recentCalls: [],
  };
  const record = await store.createRun({
    runId: request.runId,
    threadId: request.threadId,
    agentId: agent.id,
    origin: request.origin,
    ...(request.context ? { context: request.context } : {}),
    ...(request.clientTools ? { clientTools: request.clientTools } : {}),
    status: 'created',
    steps: 0,
    usage: { ...EMPTY_USAGE },
    state: encodeRunState({
      lifecycle: { id: request.runId, status: 'created', updatedAt: at },
      calls: [],
      pendingDecisions: [],
      bookkeeping,
      pluginState: {},
    }),
    version: 0,
    createdAt: at,
    updatedAt: at,
  });
  const [messages, threadState] = await Promise.all([
    readHistory(plumbing.services, request.threadId),
    store.getThreadState(request.threadId),
  ]);
  return build(plumbing, agent, record, messages, threadState, 0);
}

/** Loads a stored run for a cold resume; the event seq continues from the state or the event log. */
export async function loadSession(
  plumbing: SessionPlumbing,
  agentFor: (agentId: string) => ResolvedAgent,
  runId: string,
): Promise<RunSession | RunRecord> {
  const { store, eventLog } = plumbing.services;
  const record = await store.getRun(runId);
  if (!record) throw new AwakenError('not_found', `run ${runId} not found`);
  if (record.status === 'done') return record;
  const agent = agentFor(record.agentId);
  const [messages, threadState, lastSeq] = await Promise.all([
    readHistory(plumbing.services, record.threadId),
    store.getThreadState(record.threadId),
    eventLog ? eventLog.lastSeq(runId) : Promise.resolve(0),
  ]);
  return build(plumbing, agent, record, messages, threadState, lastSeq);
}
