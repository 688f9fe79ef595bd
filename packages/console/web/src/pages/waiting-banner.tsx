import { useEffect, useState } from 'react';
import { ApprovalCard, type ApprovalAnswer } from '../components/approval-card';
import { api } from '../lib/api';

interface Ticket {
  ticketId: string;
  toolName: string;
  action: string;
  message: string;
  arguments?: unknown;
}

/**
 * After a reload, the thread's run that waits for a human (the chat stream only re-attaches to a run
 * that works): its approvals, answered over the decision API; `onResumed` follows the run again.
 */
export function WaitingBanner(props: {
  threadId: string;
  onResumed: (runId: string, ticketIds: string[]) => Promise<void>;
}) {
  const [waiting, setWaiting] = useState<{ runId: string; tickets: Ticket[] } | null>(null);
  const { threadId } = props;

  useEffect(() => {
    let live = true;
    // the inbox, not the thread: a new chat's thread does not exist yet (a 404 the browser would log)
    api<{ items: { runId: string; threadId: string; tickets: Ticket[] }[] }>('/v1/inbox?limit=1000')
      .then((body) => {
        const run = body.items.find((item) => item.threadId === threadId);
        if (live && run && run.tickets.length > 0) setWaiting({ runId: run.runId, tickets: run.tickets });
      })
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [threadId]);

  if (!waiting) return null;

  async function answer(ticket: Ticket, value: ApprovalAnswer) {
    if (!waiting) return;
    await api(`/v1/runs/${encodeURIComponent(waiting.runId)}/decision`, {
      body: {
        ticketId: ticket.ticketId,
        result: {
          approved: value.approved,
          ...(value.reason ? { reason: value.reason } : {}),
          ...(value.editedArguments !== undefined ? { editedArguments: value.editedArguments } : {}),
        },
      },
    });
    const rest = waiting.tickets.filter((entry) => entry.ticketId !== ticket.ticketId);
    setWaiting(rest.length > 0 ? { ...waiting, tickets: rest } : null);
    if (rest.length === 0) await props.onResumed(waiting.runId, [ticket.ticketId]);
  }

  return (
    <div className="card waiting-banner" data-testid="waiting-banner">
      <p className="small">
        A run of this chat waits for you (
        <a href={`#/run/${encodeURIComponent(waiting.runId)}`}>open the run</a>).
      </p>
      {waiting.tickets
        .filter((ticket) => ticket.action !== 'client_tool')
        .map((ticket) => (
          <ApprovalCard
            key={ticket.ticketId}
            toolName={ticket.toolName}
            args={ticket.arguments}
            message={ticket.message}
            onAnswer={(value) => answer(ticket, value)}
          />
        ))}
    </div>
  );
}
