import {
  AwakenError,
  EMPTY_USAGE,
  type AgentEvent,
  type ForkOrigin,
  type Message,
  type RunContext,
  type RunRecord,
  type RunRequestOrigin,
  type UserMessage,
  activeAgentIdOf,
  jointAcquirer,
} from '@awaken/contract';
import type { OnAgentChange } from '../../types';
import { refuseAgentDrift } from './refuse-agent-drift';
import type { EventChannel } from '../session/event-channel';
import { releaseThreadState, restorePluginState } from '../plugins/plugin-host';
import { repairFinishedLog } from './repair-finished-log';
import type { ResolvedAgent } from '../runtime/resolve-agents';
import { type RunOwnership, newLeaseOwner } from './run-ownership';
import { type RuntimeServices, RunSession } from '../session/run-session';
import type { StoredClientTool } from '../runtime/run-request';
import { decodeRunState, encodeRunState } from '../checkpoint/run-state-codec';
import type { WakeSignal } from '../session/activation';
import { forkedAgent } from '../fork/forked-agent';

export interface SessionPlumbing {
  services: RuntimeServices;
  channel: EventChannel<AgentEvent>;
  wake: WakeSignal;
  runController: AbortController;
  ownership: RunOwnership;
}

async function readHistory(services: RuntimeServices, threadId: string): Promise<Message[]> {
  const records = await services.store.readMessages(threadId);
  return records.map((record) => record.message);
}

/**
 * Takes the run's lease (or uses the one handed in) and shuts every earlier activation out of the
 * event log. Returns the fence and the seq to continue from: the log's, when there is one (it is the
 * truth even when a run_finish after a checkpoint never landed), else the checkpoint's. When the
 * stores offer the joint acquisition (`AcquireWithFence`: lease, log fence and run record in one
 * call), it is used instead, and the run record read under the new lease comes back too.
 */
async function own(
  plumbing: SessionPlumbing,
  runId: string,
): Promise<{ fence: number; logSeq?: number; run?: RunRecord }> {
  const { ownership, services } = plumbing;
  const log = services.eventLog;
  const fenced = ownership.fenced;
  if (fenced !== undefined && ownership.lease !== undefined) {
    // the caller's joint acquisition raised the log's fence to this lease already
    return { fence: ownership.lease.fence, ...(log ? { logSeq: fenced.lastSeq } : {}) };
  }
  const joint = ownership.lease === undefined ? jointAcquirer(services.store, log) : undefined;
  if (joint !== undefined) {
    const taken = await joint.acquireRunWithFence(runId, {
      owner: newLeaseOwner(),
      leaseMs: services.lease.leaseMs,
    });
    ownership.adopt(taken.lease);
    return { fence: taken.lease.fence, logSeq: taken.lastSeq, run: taken.run };
  }
  const { fence } = await ownership.acquire();
  return log ? { fence, logSeq: await log.raiseFence(runId, fence) } : { fence };
}

/** The session of a run whose record, thread and lease this activation holds. */
export function buildSession(
  plumbing: SessionPlumbing,
  agent: ResolvedAgent,
  record: RunRecord,
  messages: Message[],
  threadState: Record<string, unknown>,
  owned: { fence: number; logSeq?: number },
): RunSession {
  const decoded = decodeRunState(record);
  if (owned.logSeq !== undefined) decoded.bookkeeping.lastSeq = owned.logSeq;
  // a fork runs under its repeat guard (and instructions), in every activation
  const session = new RunSession(plumbing.services, forkedAgent(agent, record), {
    ...plumbing,
    fence: owned.fence,
    record,
    messages,
    calls: decoded.calls,
    pendingDecisions: decoded.pendingDecisions,
    decisionRecords: decoded.decisionRecords,
    bookkeeping: decoded.bookkeeping,
    threadState,
  });
  try {
    restorePluginState(session);
  } catch (error) {
    // no activation will own this session: give its thread state back now
    releaseThreadState(session);
    throw error;
  }
  return session;
}

export interface NewRunInput {
  runId: string;
  threadId: string;
  input: UserMessage[];
  origin: RunRequestOrigin;
  clientTools?: StoredClientTool[];
  context?: RunContext;
  /** A child run: the parent run and call that start it, and its agent path (its agent last). */
  parentRunId?: string;
  parentCallId?: string;
  agentPath?: string[];
  /** A fork: the source run, the fork point and the calls it asks about before repeating. */
  forkOf?: ForkOrigin;
  /**
   * The thread is new for this run (a child run's derived thread): it is created first, and when that
   * succeeds nothing is read back from it (it holds no message and no state yet).
   */
  freshThread?: boolean;
  /**
   * The caller has just seen the thread absent (a hint): the thread and the run are written in the
   * same tick, and the run again only when a store that reorders them refused it first.
   */
  newThread?: boolean;
}

/**
 * Creates the run record (status `created`, input kept in its state until the run's `user_message`
 * checkpoint commits it to the thread), and first its thread when missing: the run is written at
 * once, and only when the store answers that the thread is unknown (`not_found`) is the thread
 * created and the run written again — no read before the write on a thread that exists.
 */
export async function createRunRecord(
  services: RuntimeServices,
  agent: ResolvedAgent,
  request: NewRunInput,
): Promise<RunRecord> {
  return (await writeRunRecord(services, agent, request)).record;
}

/** {@link createRunRecord}, saying whether it created the run's thread too (then known empty). */
export async function writeRunRecord(
  services: RuntimeServices,
  agent: ResolvedAgent,
  request: NewRunInput,
): Promise<{ record: RunRecord; threadCreated: boolean }> {
  const { store } = services;
  const record = newRunRecord(services, agent, request);
  if (request.freshThread && (await createThreadIfNew(services, request.threadId)))
    return { record: await store.createRun(record), threadCreated: true };
  if (request.newThread) return writeThreadAndRun(services, record);
  try {
    return { record: await store.createRun(record), threadCreated: false };
  } catch (error) {
    if (!AwakenError.hasCode(error, 'not_found')) throw error;
  }
  await store.createThread({ id: request.threadId });
  return { record: await store.createRun(record), threadCreated: true };
}

/**
 * The thread (when still missing) and the run, both asked in one tick: a store that sends same-tick
 * writes together (PostgreSQL's thread-run store: one message, one transaction) writes both in one
 * round trip. A thread that exists (`conflict`) is used as it is; a run refused as `not_found` (its
 * write went ahead of the thread's) is written again once the thread is there.
 */
async function writeThreadAndRun(
  services: RuntimeServices,
  record: RunRecord,
): Promise<{ record: RunRecord; threadCreated: boolean }> {
  const { store } = services;
  const [thread, run] = await Promise.allSettled([
    store.createThread({ id: record.threadId }),
    store.createRun(record),
  ]);
  const threadCreated = thread.status === 'fulfilled';
  if (run.status === 'fulfilled') return { record: run.value, threadCreated };
  if (!AwakenError.hasCode(run.reason, 'not_found')) throw run.reason;
  if (thread.status === 'rejected' && !AwakenError.hasCode(thread.reason, 'conflict')) throw thread.reason;
  return { record: await store.createRun(record), threadCreated };
}

/** The record of a run about to be created (status `created`, version 0, its input in its state). */
export function newRunRecord(
  services: RuntimeServices,
  agent: ResolvedAgent,
  request: NewRunInput,
): RunRecord {
  const at = services.now();
  const bookkeeping = {
    lastSeq: 0,
    decisionIds: [],
    controlIds: [],
    input: request.input,
    inputCommitted: false,
    stepEnded: 0,
    consecutiveErrors: 0,
    recentCalls: [],
  };
  const record: RunRecord = {
    runId: request.runId,
    threadId: request.threadId,
    agentId: agent.id,
    origin: request.origin,
    agentPin: agent.pin,
    ...(request.parentRunId === undefined ? {} : { parentRunId: request.parentRunId }),
    ...(request.parentCallId === undefined ? {} : { parentCallId: request.parentCallId }),
    ...(request.agentPath === undefined ? {} : { agentPath: request.agentPath }),
    ...(request.forkOf === undefined ? {} : { forkOf: request.forkOf }),
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
  };
  return record;
}

/** Creates the thread; false when it exists already. */
async function createThreadIfNew(services: RuntimeServices, threadId: string): Promise<boolean> {
  try {
    await services.store.createThread({ id: threadId });
    return true;
  } catch (error) {
    if (AwakenError.hasCode(error, 'conflict')) return false;
    throw error;
  }
}

/** Creates the run (see {@link createRunRecord}) under its lease and the session that executes it. */
export async function createSession(
  plumbing: SessionPlumbing,
  agent: ResolvedAgent,
  request: NewRunInput,
): Promise<RunSession> {
  const { store } = plumbing.services;
  const { record, threadCreated } = await writeRunRecord(plumbing.services, agent, request);
  const owned = await own(plumbing, request.runId);
  // a thread created for this run's own use holds nothing yet: no need to read it back
  const fresh = threadCreated && request.freshThread === true;
  const [messages, threadState] = fresh
    ? [[], {}]
    : await Promise.all([
        readHistory(plumbing.services, request.threadId),
        store.getThreadState(request.threadId),
      ]);
  return buildSession(plumbing, agent, record, messages, threadState, owned);
}

/**
 * Loads a stored run for a cold resume, under the run's lease (`run_busy` while another activation
 * holds it). A finished run is returned as its record, its event log completed if it was left open.
 */
export async function loadSession(
  plumbing: SessionPlumbing,
  agentFor: (agentId: string, agentPath?: readonly string[]) => ResolvedAgent,
  runId: string,
  onAgentChange: OnAgentChange = 'continue',
): Promise<RunSession | RunRecord> {
  const { store } = plumbing.services;
  // a lease handed in was granted before this read: no earlier holder can write after it
  const leasedBefore = plumbing.ownership.lease !== undefined;
  // a joint acquisition handed in read the record under its lease already (own() takes it after)
  const found = plumbing.ownership.fenced?.run ?? (await store.getRun(runId));
  if (!found) throw new AwakenError('not_found', `run ${runId} not found`);
  if (found.status === 'done') {
    await repairFinishedLog(plumbing.services, found, plumbing.ownership);
    return found;
  }
  // the agent the run was handed to last, if any (its tools resume the calls it suspended), under
  // the plugins a child run inherits from its ancestors
  const agent = agentFor(activeAgentIdOf(found), found.agentPath);
  if (onAgentChange === 'refuse') refuseAgentDrift(found, agentFor(found.agentId, found.agentPath));
  const owned = await own(plumbing, runId);
  // read again under the lease: the previous holder may have written since the first read
  // (the joint acquisition read it already, in the same step as the lease)
  const record = leasedBefore ? found : (owned.run ?? (await store.getRun(runId)) ?? found);
  if (record.status === 'done') {
    await repairFinishedLog(plumbing.services, record, plumbing.ownership);
    return record;
  }
  const [messages, threadState] = await Promise.all([
    readHistory(plumbing.services, record.threadId),
    store.getThreadState(record.threadId),
  ]);
  return buildSession(plumbing, agent, record, messages, threadState, owned);
}
