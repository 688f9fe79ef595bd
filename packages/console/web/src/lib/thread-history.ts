import type { UIMessage } from 'ai';
import { api } from './api';
import type { Ticket } from './tickets';

/** One entry of a thread's message log (`GET /v1/threads/:id/messages`). */
interface MessageRecord {
  seq: number;
  runId?: string;
  visibility: 'external' | 'internal';
  message:
    | { role: 'user' | 'system'; content: string }
    | { role: 'assistant'; text: string; toolCalls: Array<{ id: string; name: string; arguments?: unknown }> }
    | { role: 'tool'; toolCallId: string; toolName: string; outcome: string; content?: unknown };
}

/** One applied decision of a run (`GET /v1/runs/:id/decisions`), as far as the chat shows it. */
export interface ChatDecision {
  ticketId?: string;
  decidedBy?: string;
  channel?: string;
  approved?: boolean;
  /** The approver replaced the call's arguments. */
  edited?: boolean;
  reason?: string;
}

/** What the chat keeps on a message: a user message's seq in the thread, an assistant message's run (its id). */
export interface ChatMetadata {
  /** A user message's seq in the thread's log (where a branch at it starts). */
  seq?: number;
  awaken?: {
    runId: string;
    status?: string;
    /** Who decided each call of the run (by tool call id): built from the run's decision trail. */
    decisions?: Record<string, ChatDecision>;
  };
}

/** A thread as the chat shows it: its conversation and the questions its waiting run asks. */
export interface ThreadSnapshot {
  messages: UIMessage[];
  /** The thread's waiting run and its tickets, when one waits. */
  waiting?: { runId: string; tickets: Ticket[] };
  /** The agent of the thread's latest run (the chat goes on with it). */
  agentId?: string;
}

const PAGE = 1000;

async function allMessages(threadId: string): Promise<MessageRecord[]> {
  const all: MessageRecord[] = [];
  let after = 0;
  for (;;) {
    const page = await api<{ items: MessageRecord[]; nextCursor?: string }>(
      `/v1/threads/${encodeURIComponent(threadId)}/messages?after=${after}&limit=${PAGE}`,
    );
    all.push(...page.items);
    if (!page.nextCursor) return all;
    after = Number(page.nextCursor);
  }
}

function text(value: unknown): string {
  if (typeof value === 'string') return value;
  const error = (value as { error?: unknown } | undefined)?.error;
  if (typeof error === 'string') return error;
  return JSON.stringify(value ?? null);
}

type ToolRecord = Extract<MessageRecord['message'], { role: 'tool' }>;

/** The part of one tool call: its input, and its state from its result, the run and its decisions. */
function toolPart(
  call: { id: string; name: string; arguments?: unknown },
  result: ToolRecord | undefined,
  run: { status: string; tickets: Ticket[] },
  decision: ChatDecision | undefined,
): Record<string, unknown> {
  const base = { type: `tool-${call.name}`, toolCallId: call.id, input: call.arguments ?? {} };
  const approvalId = decision?.ticketId;
  if (result) {
    let content = result.content;
    let input = base.input;
    // a call a human approved with edited arguments: its result inside, the edit beside it
    if (content && typeof content === 'object' && 'argumentsEditedByHuman' in content) {
      const edited = content as { argumentsEditedByHuman?: { to?: unknown }; result?: unknown };
      input = edited.argumentsEditedByHuman?.to ?? input;
      content = edited.result;
    }
    const approved =
      approvalId && decision?.approved === true
        ? {
            approval: {
              id: approvalId,
              approved: true,
              ...(decision.reason ? { reason: decision.reason } : {}),
            },
          }
        : {};
    if (result.outcome === 'succeeded')
      return { ...base, input, state: 'output-available', output: content ?? null, ...approved };
    if (result.outcome === 'cancelled' && approvalId && decision?.approved === false)
      return {
        ...base,
        state: 'output-denied',
        approval: {
          id: approvalId,
          approved: false,
          ...(decision.reason ? { reason: decision.reason } : {}),
        },
      };
    const fallback = result.outcome === 'expired' ? 'the approval for this call expired' : 'the call failed';
    return {
      ...base,
      input,
      state: 'output-error',
      errorText: content === undefined ? fallback : text(content),
      ...approved,
    };
  }
  const ticket = run.tickets.find((entry) => entry.toolCallId === call.id);
  if (run.status === 'waiting' && ticket?.resumeMode === 'replay_tool_call')
    return { ...base, state: 'approval-requested', approval: { id: ticket.ticketId } };
  if (run.status === 'done')
    return { ...base, state: 'output-error', errorText: 'the run ended before this call finished' };
  return { ...base, state: 'input-available' };
}

/**
 * Loads a thread's conversation from the server — its message log, its runs and their decisions —
 * as `useChat` messages: a user message per input, one assistant message per run (its id is the run
 * id, as the chat route streams it) with a step per model turn, its text and its tool parts (results,
 * denials, errors, the approvals a waiting run asks). `withoutRun` leaves that run's answer out (a
 * running run the chat re-attaches to replays it whole). Null when the thread does not exist yet.
 */
export async function loadThread(
  threadId: string,
  options: { withoutRun?: (run: { runId: string; status: string }) => boolean } = {},
): Promise<ThreadSnapshot | null> {
  let records: MessageRecord[];
  let runs: Array<{ runId: string; status: string; agentId?: string; waiting?: { tickets: Ticket[] } }>;
  try {
    [records, runs] = await Promise.all([
      allMessages(threadId),
      api<{ items: typeof runs }>(`/v1/threads/${encodeURIComponent(threadId)}/runs?limit=1000`).then(
        (page) => page.items,
      ),
    ]);
  } catch (error) {
    if ((error as { status?: number }).status === 404) return null;
    throw error;
  }
  const runById = new Map(runs.map((run) => [run.runId, run]));
  // a branch's history starts with its source's messages: their runs are the source's, read one by one
  const shared = [...new Set(records.flatMap(({ runId }) => (runId && !runById.has(runId) ? [runId] : [])))];
  const sharedRuns = await Promise.all(
    shared.map((runId) =>
      api<(typeof runs)[number]>(`/v1/runs/${encodeURIComponent(runId)}`).catch(() => undefined),
    ),
  );
  // a source run's question is not this thread's to answer: shown without its tickets
  for (const run of sharedRuns) if (run) runById.set(run.runId, { ...run, waiting: { tickets: [] } });
  const results = new Map<string, ToolRecord>();
  const asked = new Set<string>();
  for (const { runId, message } of records) {
    if (message.role === 'tool') results.set(`${runId}/${message.toolCallId}`, message);
    if (message.role === 'assistant' && message.toolCalls.length > 0 && runId) asked.add(runId);
  }
  // who decided each call: the runs that made tool calls
  const decisions = new Map<string, Record<string, ChatDecision>>();
  await Promise.all(
    [...asked].map(async (runId) => {
      const trail = await api<{
        decisions: Array<{
          toolCallId: string;
          ticketId?: string;
          decidedBy?: string;
          channel?: string;
          answer: { approved?: boolean; reason?: string; editedArguments?: unknown };
        }>;
      }>(`/v1/runs/${encodeURIComponent(runId)}/decisions`).catch(() => ({ decisions: [] }));
      const byCall: Record<string, ChatDecision> = {};
      for (const entry of trail.decisions) {
        byCall[entry.toolCallId] = {
          ...(entry.ticketId ? { ticketId: entry.ticketId } : {}),
          ...(entry.decidedBy ? { decidedBy: entry.decidedBy } : {}),
          ...(entry.channel ? { channel: entry.channel } : {}),
          ...(entry.answer.approved === undefined ? {} : { approved: entry.answer.approved }),
          ...(entry.answer.editedArguments === undefined ? {} : { edited: true }),
          ...(entry.answer.reason ? { reason: entry.answer.reason } : {}),
        };
      }
      decisions.set(runId, byCall);
    }),
  );

  const messages: UIMessage[] = [];
  const answers = new Map<string, UIMessage>();
  for (const record of records) {
    const { message, runId = '' } = record;
    const run = runById.get(runId);
    if (message.role === 'user') {
      if (record.visibility !== 'external') continue;
      messages.push({
        id: `${runId || threadId}:${record.seq}`,
        role: 'user',
        metadata: { seq: record.seq } satisfies ChatMetadata,
        parts: [{ type: 'text', text: message.content }],
      });
      continue;
    }
    if (message.role !== 'assistant' || !run || options.withoutRun?.(run)) continue;
    let answer = answers.get(runId);
    if (!answer) {
      const metadata: ChatMetadata = {
        awaken: { runId, status: run.status, decisions: decisions.get(runId) ?? {} },
      };
      answer = { id: runId, role: 'assistant', metadata, parts: [] };
      answers.set(runId, answer);
      messages.push(answer);
    }
    answer.parts.push({ type: 'step-start' });
    if (message.text) answer.parts.push({ type: 'text', text: message.text, state: 'done' });
    for (const call of message.toolCalls) {
      const part = toolPart(
        call,
        results.get(`${runId}/${call.id}`),
        { status: run.status, tickets: run.waiting?.tickets ?? [] },
        decisions.get(runId)?.[call.id],
      );
      answer.parts.push(part as UIMessage['parts'][number]);
    }
  }
  const waiting = runs.find((run) => run.status === 'waiting');
  const agentId = runs[0]?.agentId;
  return {
    messages,
    ...(agentId ? { agentId } : {}),
    ...(waiting ? { waiting: { runId: waiting.runId, tickets: waiting.waiting?.tickets ?? [] } } : {}),
  };
}
