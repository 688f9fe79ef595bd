import { type ApprovalLinks, NOTIFICATION_LINK_TTL_MS } from './approval-links';
import type { StoredDelivery } from './create-notification-outbox';
import type { NotifiedTicket } from './run-notifications-of';
import { slackApprovalCard, slackTextMessage } from './slack/slack-card';
import type { WebhookEndpoint } from './webhook-endpoint';

/** A fresh approval link for an `approval.requested` delivery, when its ticket takes approve / deny. */
function linkOf(input: DeliveryBodyInput): { url: string; expiresAt: number; approver?: string } | undefined {
  const { delivery, endpoint, links } = input;
  const ticket = delivery.data.ticket as NotifiedTicket | undefined;
  const run = delivery.data.run as { runId: string } | undefined;
  if (delivery.event !== 'approval.requested' || !links || !ticket?.approvable || !run) return undefined;
  const expiresAt = Math.min(
    input.now + NOTIFICATION_LINK_TTL_MS,
    ticket.expiresAt ?? Number.POSITIVE_INFINITY,
  );
  const url = links.urlFor({
    tenant: input.tenant,
    runId: run.runId,
    ticketId: ticket.ticketId,
    ...(endpoint.approver === undefined ? {} : { approver: endpoint.approver }),
    issuedBy: `webhook:${endpoint.id}`,
    expiresAt,
  });
  return { url, expiresAt, ...(endpoint.approver === undefined ? {} : { approver: endpoint.approver }) };
}

export interface DeliveryBodyInput {
  tenant: string;
  delivery: StoredDelivery;
  endpoint: WebhookEndpoint;
  links?: ApprovalLinks;
  /** Epoch ms: the link's lifetime starts now. */
  now: number;
}

function slackBody(input: DeliveryBodyInput, link: ReturnType<typeof linkOf>): Record<string, unknown> {
  const { event, data } = input.delivery;
  const ticket = data.ticket as NotifiedTicket | undefined;
  const run = data.run as { runId: string; termination?: { message?: string } };
  if (event === 'approval.requested' && ticket && link) {
    return slackApprovalCard({
      toolName: ticket.toolName,
      arguments: ticket.arguments,
      ...(ticket.message ? { message: ticket.message } : {}),
      agentPath: ticket.agentPath,
      ...(ticket.expiresAt === undefined ? {} : { expiresAt: ticket.expiresAt }),
      linkUrl: link.url,
    });
  }
  const decision = data.decision as { approved?: boolean; action?: string; decidedBy?: string } | undefined;
  const what: Record<typeof event, string> = {
    'approval.requested': `Approval needed: ${ticket?.toolName} (run ${run.runId})`,
    'approval.decided': `${ticket?.toolName} was ${decision?.approved === false ? 'denied' : decision?.approved ? 'approved' : `answered (${decision?.action})`}${decision?.decidedBy ? ` by ${decision.decidedBy}` : ''}`,
    'approval.expired': `The approval of ${ticket?.toolName} expired before anyone answered`,
    'run.waiting': `Run ${run.runId} waits for an answer`,
    'run.failed': `Run ${run.runId} failed: ${run.termination?.message ?? 'error'}`,
  };
  return slackTextMessage(what[event]);
}

/**
 * The body of one delivery attempt: for `awaken` endpoints the event as JSON
 * (`{ id, type, tenant, createdAt, data }`, `data.link` a fresh approval link on `approval.requested`),
 * for `slack` endpoints a Block Kit message. The link is minted at each attempt, so it works for its
 * full lifetime from when it is sent.
 */
export function deliveryBodyOf(input: DeliveryBodyInput): string {
  const link = linkOf(input);
  if (input.endpoint.format === 'slack') return JSON.stringify(slackBody(input, link));
  const { delivery } = input;
  return JSON.stringify({
    id: delivery.deliveryId,
    type: delivery.event,
    tenant: input.tenant,
    createdAt: new Date(delivery.createdAt).toISOString(),
    data: { ...delivery.data, ...(link ? { link } : {}) },
  });
}
