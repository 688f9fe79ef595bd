import { useChat } from '@ai-sdk/react';
import { DefaultChatTransport, type UIMessage } from 'ai';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { MessageTools } from '../components/message-tools';
import { BranchList, BranchOrigin, useBranchFamily } from '../components/thread-branches';
import { type TicketAnswer, decisionResultOf } from '../components/ticket-form';
import { API_BASE, api, authHeaders, followSse } from '../lib/api';
import { type BranchFamily, goToBranch } from '../lib/branches';
import { useApi } from '../lib/hooks';
import { decide, readableRefusal } from '../lib/decide';
import { type ChatMetadata, type ThreadSnapshot, loadThread } from '../lib/thread-history';
import type { Ticket } from '../lib/tickets';
import { ToolCallView, type ToolPart } from './chat-parts';

const PROMPTS = [
  'delete /tmp/report.txt',
  'delete /tmp/a.txt and /tmp/b.txt',
  'ask the janitor to delete /tmp/report.txt',
  'ask the janitor to delete /tmp/a.txt and the archivist to delete /tmp/b.txt',
  'pick a color',
  'weather in Paris',
  'count to 20',
];

/** Thread ids this tab made up for a new chat: nothing on the server to load yet. */
const fresh = new Set<string>();

function newThreadId(): string {
  const id = `chat-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
  fresh.add(id);
  return id;
}

/** The link of a new, empty chat. */
export function newChatHash(): string {
  return `#/chat/${encodeURIComponent(newThreadId())}`;
}

/** The agents the server runs (`GET /v1/agents`), and the one its chat route defaults to. */
interface AgentList {
  items: Array<{ id: string }>;
  defaultAgentId?: string;
}

/** The events after which the chat shows a followed run again. */
const MOVES = new Set(['run_start', 'tool_call_resumed', 'tool_call_done', 'step_end', 'run_finish']);

/** A run that executes: the chat re-attaches to it (`resume`), which replays its answer whole. */
const executing = (run: { status: string }) => run.status === 'running' || run.status === 'created';

/**
 * Chat with the agent through the server's AI SDK route (`useChat`). The chat id is the thread id,
 * kept in the URL; opening a thread (a reload, a link from the inbox or a run page) shows its
 * conversation from the server's thread log before anything else.
 */
export function ChatPage({ threadId }: { threadId: string | undefined }) {
  const id = useMemo(() => threadId ?? newThreadId(), [threadId]);
  useEffect(() => {
    if (!threadId) window.history.replaceState(null, '', `#/chat/${encodeURIComponent(id)}`);
  }, [threadId, id]);
  const [loaded, setLoaded] = useState<{ id: string; snapshot?: ThreadSnapshot; error?: string }>();
  const agents = useApi<AgentList>('/v1/agents');
  const [picked, setPicked] = useState<string>();
  // the agent a new message goes to: the one picked, else the thread's, else the server's default
  const agentId =
    picked ?? loaded?.snapshot?.agentId ?? agents.data?.defaultAgentId ?? agents.data?.items[0]?.id;
  const several = (agents.data?.items.length ?? 0) > 1;
  // the thread's branches, as the server has them (a thread not on the server yet has none)
  const family = useBranchFamily(id, (loaded?.snapshot?.messages.length ?? 0) > 0 ? loaded : undefined);

  useEffect(() => {
    if (fresh.has(id)) {
      setLoaded({ id, snapshot: { messages: [] } });
      return;
    }
    let live = true;
    loadThread(id, { withoutRun: executing })
      .then((snapshot) => live && setLoaded({ id, snapshot: snapshot ?? { messages: [] } }))
      .catch((error: Error) => live && setLoaded({ id, error: error.message }));
    return () => {
      live = false;
    };
  }, [id]);

  return (
    <section className="chat" aria-label="Chat">
      <div className="page-head">
        <div>
          <h1>Chat</h1>
          <p className="muted small">
            Thread <code>{id}</code>
            {!several && agentId ? (
              <>
                {' '}
                · agent <code>{agentId}</code>
              </>
            ) : null}
          </p>
          <BranchOrigin family={family} />
          <BranchList family={family} />
        </div>
        <div className="head-actions">
          {several ? (
            <label className="agent-picker small">
              Agent
              <select value={agentId ?? ''} onChange={(event) => setPicked(event.target.value)}>
                {agents.data?.items.map((agent) => (
                  <option key={agent.id} value={agent.id}>
                    {agent.id}
                  </option>
                ))}
              </select>
            </label>
          ) : null}
          <a className="button ghost" href="#/threads">
            All threads
          </a>
          <button
            type="button"
            className="ghost"
            onClick={() => {
              setPicked(undefined);
              window.location.hash = newChatHash();
            }}
          >
            New chat
          </button>
        </div>
      </div>
      {loaded?.id !== id ? (
        <p className="muted" data-testid="chat-loading">
          Loading the conversation…
        </p>
      ) : loaded.error ? (
        <p className="error" role="alert">
          {loaded.error}
        </p>
      ) : (
        <Conversation
          key={id}
          id={id}
          initial={loaded.snapshot ?? { messages: [] }}
          agentId={agentId}
          agentName={agentId}
          family={family}
        />
      )}
    </section>
  );
}

function metadataOf(message: UIMessage | undefined): ChatMetadata['awaken'] {
  return (message?.metadata as ChatMetadata | undefined)?.awaken;
}

/** The ticket ids the chat shows open (approval parts asking, tickets of the waiting run). */
function openTicketIds(messages: UIMessage[], tickets: Ticket[]): string[] {
  const last = messages.at(-1);
  if (last?.role !== 'assistant') return [];
  const ids = new Set<string>();
  for (const part of last.parts as ToolPart[]) {
    if (part.state === 'approval-requested' && part.approval) ids.add(part.approval.id);
  }
  for (const ticket of tickets) ids.add(ticket.ticketId);
  return [...ids].sort();
}

/**
 * The conversation of one thread: streaming text, tool calls as the server reports them, answer
 * forms in place, the client tool, stop, and a reload that re-attaches to a running run (`resume`).
 * While its last run waits, the chat follows that run's events: an answer made elsewhere (the API,
 * the inbox, a link) or an expiry replaces the form with what happened. While it is idle, it follows
 * the thread's event stream from now on, so a run started elsewhere shows up as it runs.
 */
function Conversation({
  id,
  initial,
  agentId,
  agentName,
  family,
}: {
  id: string;
  initial: ThreadSnapshot;
  agentId: string | undefined;
  agentName: string | undefined;
  family: BranchFamily | undefined;
}) {
  const agentRef = useRef(agentId);
  agentRef.current = agentId;
  const transport = useMemo(
    () =>
      new DefaultChatTransport({
        api: `${API_BASE}/v1/ai-sdk/chat`,
        headers: () => authHeaders(),
        // the agent a new message starts a run of (the server's default when none is known)
        body: () => (agentRef.current ? { agentId: agentRef.current } : {}),
      }),
    [],
  );
  const [tickets, setTickets] = useState<{ runId: string; tickets: Ticket[] } | undefined>(initial.waiting);
  const syncing = useRef<Promise<void> | undefined>(undefined);
  const chatRef = useRef<ReturnType<typeof useChat> | undefined>(undefined);

  /** Shows the thread as the server has it now (after an answer made elsewhere, an error, an expiry). */
  const sync = useCallback(async () => {
    if (syncing.current) return syncing.current;
    syncing.current = (async () => {
      try {
        const snapshot = await loadThread(id);
        if (!snapshot) return;
        chatRef.current?.setMessages(snapshot.messages);
        setTickets(snapshot.waiting);
      } finally {
        syncing.current = undefined;
      }
    })();
    return syncing.current;
  }, [id]);

  const chat = useChat({
    id,
    transport,
    messages: initial.messages,
    resume: true,
    // a refused request (answered elsewhere, four-eyes, expired): the chat shows the server's state again
    onError: () => void sync(),
    // an edit or a regenerate runs on a new branch of the thread: the chat goes on there
    onData: (part) => goToBranch(part, id),
  });
  chatRef.current = chat;
  const { messages, status, error } = chat;
  const [text, setText] = useState('');
  const [notice, setNotice] = useState<string>();
  const bottom = useRef<HTMLDivElement>(null);
  const busy = status === 'submitted' || status === 'streaming';
  const last = messages.at(-1);
  const lastRun = last?.role === 'assistant' ? metadataOf(last) : undefined;
  // a run the chat does not stream itself (it waits, or it went on after an answer made elsewhere)
  const followed = lastRun?.status === 'waiting' || lastRun?.status === 'running';
  const waitingRunId = !busy && followed ? (lastRun?.runId ?? last?.id) : undefined;
  const shownRef = useRef<string[]>([]);
  shownRef.current = openTicketIds(
    messages,
    tickets && tickets.runId === waitingRunId ? tickets.tickets : [],
  );

  useEffect(() => {
    bottom.current?.scrollIntoView?.({ block: 'end' });
  }, [messages]);

  // the waiting (or running on its own) run, followed: its tickets loaded, every change it goes through shown
  useEffect(() => {
    if (!waitingRunId) return;
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    let finished = false;
    const path = `/v1/runs/${encodeURIComponent(waitingRunId)}`;
    async function check() {
      const run = await api(path).catch(() => undefined);
      if (!run || controller.signal.aborted) return;
      const open = ((run.waiting?.tickets ?? []) as Ticket[]).map((ticket) => ticket.ticketId).sort();
      if (run.status === 'waiting')
        setTickets({ runId: waitingRunId as string, tickets: run.waiting.tickets });
      if (run.status !== 'waiting' || open.join('\n') !== shownRef.current.join('\n')) await sync();
    }
    void check();
    void followSse(
      `${path}/events`,
      (frame) => {
        const event = JSON.parse(frame.data) as { type: string; status?: string };
        if (event.type === 'run_finish' && event.status === 'done') finished = true;
        // what changes the conversation (not each word of a streamed text)
        if (!MOVES.has(event.type)) return;
        clearTimeout(timer);
        timer = setTimeout(() => void check(), 120);
      },
      controller.signal,
      { reconnect: true, again: () => !finished },
    );
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [waitingRunId, sync]);

  // idle and following no run: the thread's own stream, from now on, shows a run started elsewhere
  // (another tab, the API, a queued input) — the chat then shows the thread as the server has it
  // (a chat with no answer yet may have no thread on the server: useChat shows the user's message a
  // moment before its request is under way, so only a chat the server has answered follows it)
  const idle = !busy && !waitingRunId && messages.some((message) => message.role === 'assistant');
  useEffect(() => {
    if (!idle) return;
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    void followSse(
      `/v1/threads/${encodeURIComponent(id)}/events?after=now`,
      (frame) => {
        const event = JSON.parse(frame.data) as { type: string };
        if (!MOVES.has(event.type)) return;
        clearTimeout(timer);
        timer = setTimeout(() => void sync(), 120);
      },
      controller.signal,
      { reconnect: true },
    );
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [idle, id, sync]);

  async function onAnswer(message: UIMessage, part: ToolPart, answer: TicketAnswer) {
    setNotice(undefined);
    if (answer.kind === 'approval' && answer.editedArguments === undefined && part.approval) {
      // a plain approve / deny: the chat protocol answers it and streams the continuation
      await chat.addToolApprovalResponse({
        id: part.approval.id,
        approved: answer.approved,
        ...(answer.reason ? { reason: answer.reason } : {}),
      });
      await chat.sendMessage();
      return;
    }
    // edited arguments and other answers (an indeterminate call) go over the decision API; the run's
    // events then show what the server made of them (the followed run is synced)
    const runId = metadataOf(message)?.runId ?? message.id;
    const ticket =
      tickets?.tickets.find((entry) => entry.toolCallId === part.toolCallId) ??
      (part.approval ? { ticketId: part.approval.id } : undefined);
    if (!ticket) throw new Error('this call waits on no question the server knows');
    await decide(runId, ticket.ticketId, decisionResultOf(answer));
  }

  async function stop() {
    await chat.stop();
    try {
      const result = await api(`/v1/ai-sdk/chat/${encodeURIComponent(id)}/cancel`, { method: 'POST' });
      setNotice(result.runId ? 'Stopped: the run was cancelled.' : 'Nothing was running.');
    } catch (failure) {
      setNotice(readableRefusal(failure).message);
    }
  }

  /** A new message, or with `messageId` an edit of an earlier one (the server branches the thread). */
  function send(value: string, messageId?: string) {
    if (!value.trim() || busy) return;
    setNotice(undefined);
    chat.clearError();
    void chat.sendMessage({ text: value.trim(), ...(messageId ? { messageId } : {}) });
    if (!messageId) setText('');
  }

  const runTickets = (runId: string) => (tickets?.runId === runId ? tickets.tickets : []);

  return (
    <>
      <div className="messages" aria-live="polite">
        {messages.length === 0 ? (
          <div className="empty">
            <h2>{agentName ? `Ask the ${agentName} agent something` : 'Ask the agent something'}</h2>
            <p className="muted">A run that needs a human waits for you right here — try one of these:</p>
            <div className="chips">
              {PROMPTS.map((prompt) => (
                <button key={prompt} type="button" className="chip" onClick={() => send(prompt)}>
                  {prompt}
                </button>
              ))}
            </div>
          </div>
        ) : null}
        {messages.map((message) => {
          const run = metadataOf(message);
          return (
            <div
              key={message.id}
              className={`message ${message.role}`}
              data-testid={`message-${message.role}`}
              data-run-id={message.role === 'assistant' ? (run?.runId ?? message.id) : undefined}
            >
              <div className="avatar" aria-hidden="true">
                {message.role === 'user' ? 'You' : 'AI'}
              </div>
              <div className="bubble">
                {message.parts.map((part: any, index) => {
                  if (part.type === 'text') {
                    return (
                      <p key={`${message.id}-${index}`} className="text">
                        {part.text}
                      </p>
                    );
                  }
                  if (typeof part.type === 'string' && part.type.startsWith('tool-')) {
                    return (
                      <ToolCallView
                        key={`${message.id}-${part.toolCallId}`}
                        part={part}
                        ticket={runTickets(run?.runId ?? message.id).find(
                          (ticket) => ticket.toolCallId === part.toolCallId,
                        )}
                        decision={run?.decisions?.[part.toolCallId]}
                        runId={run?.runId ?? message.id}
                        onAnswer={(p, answer) => onAnswer(message, p, answer)}
                        onClientOutput={(p, output) => {
                          void Promise.resolve(
                            chat.addToolOutput({
                              tool: 'choose_color' as never,
                              toolCallId: p.toolCallId,
                              output: output as never,
                            }),
                          ).then(() => chat.sendMessage());
                        }}
                      />
                    );
                  }
                  return null;
                })}
                <MessageTools
                  message={message}
                  family={family}
                  idle={!busy}
                  last={message === last && !followed}
                  onEdit={(value) => send(value, message.id)}
                  onRegenerate={() => void chat.regenerate({ messageId: message.id })}
                />
                {message.role === 'assistant' && run?.runId ? (
                  <a className="small muted run-link" href={`#/run/${encodeURIComponent(run.runId)}`}>
                    run {run.runId.slice(0, 8)}
                  </a>
                ) : null}
              </div>
            </div>
          );
        })}
        {status === 'submitted' ? <div className="typing muted small">thinking…</div> : null}
        {error ? (
          <p className="error" role="alert">
            {readableRefusal(error).message}
          </p>
        ) : null}
        {notice ? <p className="notice">{notice}</p> : null}
        <div ref={bottom} />
      </div>
      <form
        className="composer"
        onSubmit={(event) => {
          event.preventDefault();
          send(text);
        }}
      >
        <label htmlFor="chat-input" className="sr-only">
          Message
        </label>
        <input
          id="chat-input"
          placeholder="Message the agent…"
          value={text}
          autoComplete="off"
          onChange={(event) => setText(event.target.value)}
        />
        {busy ? (
          <button type="button" className="danger" onClick={() => void stop()}>
            Stop
          </button>
        ) : (
          <button type="submit" className="primary" disabled={!text.trim()}>
            Send
          </button>
        )}
      </form>
    </>
  );
}
