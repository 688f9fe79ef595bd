import { useChat } from '@ai-sdk/react';
import { DefaultChatTransport, type UIMessage } from 'ai';
import { useEffect, useMemo, useRef, useState } from 'react';
import type { ApprovalAnswer } from '../components/approval-card';
import { API_BASE, api, authHeaders } from '../lib/api';
import { ToolCallView, type ToolPart } from './chat-parts';
import { WaitingBanner } from './waiting-banner';

const PROMPTS = [
  'delete /tmp/report.txt',
  'delete /tmp/a.txt and /tmp/b.txt',
  'ask the janitor to delete /tmp/report.txt',
  'ask the janitor to delete /tmp/a.txt and the archivist to delete /tmp/b.txt',
  'pick a color',
  'weather in Paris',
  'count to 20',
];

function newThreadId(): string {
  return `chat-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
}

/** Waits (a few seconds at most) until `runId` no longer waits on any of `ticketIds`; returns the run. */
async function afterDecision(runId: string, ticketIds: string[]): Promise<any> {
  for (let attempt = 0; attempt < 50; attempt += 1) {
    const run = await api(`/v1/runs/${encodeURIComponent(runId)}`);
    const waitsOnIt =
      run.status === 'waiting' && ticketIds.some((ticketId) => run.waiting?.ticketIds?.includes(ticketId));
    if (run.status === 'done' || (run.status === 'waiting' && !waitsOnIt)) return run;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return api(`/v1/runs/${encodeURIComponent(runId)}`);
}

/**
 * Chat with the agent through the server's AI SDK route (`useChat`): streaming text, tool calls with
 * their state, approvals answered in place (one by one), the client tool, stop, and a reload that
 * re-attaches to the running run (`resume`). The chat id is the thread id, kept in the URL.
 */
export function ChatPage({ threadId }: { threadId: string | undefined }) {
  const id = useMemo(() => threadId ?? newThreadId(), [threadId]);
  useEffect(() => {
    if (!threadId) window.history.replaceState(null, '', `#/chat/${encodeURIComponent(id)}`);
  }, [threadId, id]);
  const transport = useMemo(
    () => new DefaultChatTransport({ api: `${API_BASE}/v1/ai-sdk/chat`, headers: () => authHeaders() }),
    [],
  );
  const chat = useChat({ id, transport, resume: true });
  const { messages, status, error } = chat;
  const [text, setText] = useState('');
  const [notice, setNotice] = useState<string>();
  const bottom = useRef<HTMLDivElement>(null);
  const busy = status === 'submitted' || status === 'streaming';

  useEffect(() => {
    bottom.current?.scrollIntoView?.({ block: 'end' });
  }, [messages]);

  async function onApproval(message: UIMessage, part: ToolPart, answer: ApprovalAnswer) {
    const approvalId = part.approval?.id ?? '';
    if (answer.editedArguments === undefined) {
      await chat.addToolApprovalResponse({
        id: approvalId,
        approved: answer.approved,
        ...(answer.reason ? { reason: answer.reason } : {}),
      });
      await chat.sendMessage();
      return;
    }
    // the chat protocol has no edited arguments: decide over the API, then show the outcome here
    const runId = (message.metadata as any)?.awaken?.runId ?? message.id;
    await api(`/v1/runs/${encodeURIComponent(runId)}/decision`, {
      body: {
        ticketId: approvalId,
        result: {
          approved: true,
          editedArguments: answer.editedArguments,
          ...(answer.reason ? { reason: answer.reason } : {}),
        },
      },
    });
    const run = await afterDecision(runId, [approvalId]);
    chat.setMessages((all) =>
      all.map((entry) =>
        entry.id !== message.id
          ? entry
          : {
              ...entry,
              parts: [
                ...entry.parts.map((p: any) =>
                  p.toolCallId === part.toolCallId
                    ? {
                        ...p,
                        state: 'output-available',
                        input: answer.editedArguments,
                        output: 'approved with edited arguments',
                      }
                    : p,
                ),
                ...(run.status === 'done' && run.response
                  ? [{ type: 'text' as const, text: run.response }]
                  : []),
              ],
            },
      ),
    );
  }

  async function stop() {
    await chat.stop();
    try {
      const result = await api(`/v1/ai-sdk/chat/${encodeURIComponent(id)}/cancel`, { method: 'POST' });
      setNotice(result.runId ? 'Stopped: the run was cancelled.' : 'Nothing was running.');
    } catch (failure) {
      setNotice((failure as Error).message);
    }
  }

  function send(value: string) {
    if (!value.trim() || busy) return;
    setNotice(undefined);
    void chat.sendMessage({ text: value.trim() });
    setText('');
  }

  return (
    <section className="chat" aria-label="Chat">
      <div className="page-head">
        <div>
          <h1>Chat</h1>
          <p className="muted small">
            Thread <code>{id}</code> · agent <code>demo</code>
          </p>
        </div>
        <a className="button ghost" href={`#/chat/${newThreadId()}`}>
          New chat
        </a>
      </div>
      <div className="messages" aria-live="polite">
        {messages.length === 0 ? (
          <WaitingBanner
            key={id}
            threadId={id}
            onResumed={async (runId, ticketIds) => {
              const run = await afterDecision(runId, ticketIds);
              if (run.status === 'done') setNotice(run.response ?? 'The run finished.');
              else await chat.resumeStream();
            }}
          />
        ) : null}
        {messages.length === 0 ? (
          <div className="empty">
            <h2>Ask the demo agent something</h2>
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
        {messages.map((message) => (
          <div key={message.id} className={`message ${message.role}`} data-testid={`message-${message.role}`}>
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
                      onApproval={(p, answer) => onApproval(message, p, answer)}
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
            </div>
          </div>
        ))}
        {status === 'submitted' ? <div className="typing muted small">thinking…</div> : null}
        {error ? (
          <p className="error" role="alert">
            {error.message}
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
    </section>
  );
}
