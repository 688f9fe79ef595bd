import { type ToolCallDecisionInput, approve, deny } from '@awaken/contract';
import type { Context, Hono } from 'hono';
import type { HttpEnv } from '../http-types';
import type { MailboxService } from '../../types';
import { noticePage, questionPage } from './link-page';
import type { LinkClaims, LinkSigner } from './link-signer';
import { waitingCallOf } from './waiting-call';

const SECURITY_HEADERS = {
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'",
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'cache-control': 'no-store',
};

function html(c: Context<HttpEnv>, body: string, status: number) {
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) c.header(name, value);
  return c.html(body, status as 200);
}

type Checked = { claims: LinkClaims; service: MailboxService; signature: string } | { refused: Response };

/** The link's claims if its signature holds and it has not expired; else the page that says why. */
function checkLink(
  c: Context<HttpEnv>,
  signer: LinkSigner,
  tenants: Record<string, MailboxService>,
): Checked {
  const { tenant = '', runId = '', ticketId = '' } = c.req.param();
  const exp = c.req.query('exp') ?? '';
  const issuedBy = c.req.query('iss') ?? '';
  const approver = c.req.query('for');
  const signature = c.req.query('sig') ?? '';
  const expiresAt = /^\d{1,16}$/.test(exp) ? Number(exp) : Number.NaN;
  const claims: LinkClaims = {
    tenant,
    runId,
    ticketId,
    expiresAt,
    ...(approver === undefined ? {} : { approver }),
    issuedBy,
  };
  const service = Object.hasOwn(tenants, tenant) ? tenants[tenant] : undefined;
  if (!Number.isFinite(expiresAt) || !service || !signer.verify(claims, signature)) {
    return { refused: html(c, noticePage('Link not valid', 'This approval link is not valid.'), 403) };
  }
  if (Date.now() >= expiresAt) {
    return { refused: html(c, noticePage('Link expired', 'This approval link has expired.'), 410) };
  }
  c.var.ids.runId = runId;
  return { claims, service, signature };
}

const NOT_WAITING = 'This request is no longer waiting for an answer.';

type Waiting =
  | { call: WaitingCall; status?: undefined; page?: undefined }
  | { status: 404 | 409; page: () => Response | Promise<Response>; call?: undefined };
type WaitingCall = Extract<ReturnType<typeof waitingCallOf>, { call: unknown }>['call'];

/** The call waiting on the link's ticket, or why it cannot be answered now (with its page). */
async function notWaiting(
  c: Context<HttpEnv>,
  service: MailboxService,
  claims: LinkClaims,
): Promise<Waiting> {
  const record = await service.stores.threadRuns.getRun(claims.runId);
  const waiting = record ? waitingCallOf(record, claims.ticketId) : { missing: true as const };
  if ('missing' in waiting) {
    return { status: 404, page: () => html(c, noticePage('Not found', 'There is no such request.'), 404) };
  }
  if ('answered' in waiting) {
    return { status: 409, page: () => html(c, noticePage('Already answered', NOT_WAITING), 409) };
  }
  return { call: waiting.call };
}

/** The decision a form answer makes: bound to the ticket, idempotent per link and answer. */
export function decisionOf(
  claims: LinkClaims,
  signature: string,
  answer: 'approve' | 'deny',
  reason?: string,
) {
  const options = {
    decisionId: `link:${signature.slice(0, 22)}:${answer}`,
    context: {
      link: { issuedBy: claims.issuedBy, ...(claims.approver ? { approver: claims.approver } : {}) },
    },
  };
  const decision: ToolCallDecisionInput =
    answer === 'approve'
      ? approve(claims.ticketId, { ...options, ...(reason ? { reason } : {}) })
      : deny(claims.ticketId, reason, options);
  // the approver the link names, vouched for by its issuer: both are recorded, both judged (four-eyes)
  return {
    ...decision,
    decidedBy: claims.approver ?? claims.issuedBy,
    ...(claims.issuedBy === '' ? {} : { issuedBy: claims.issuedBy }),
    channel: 'link' as const,
  };
}

/**
 * The pages behind approval links, outside `/v1` (no bearer token: the signature is the credential).
 * `GET` shows the ticket's tool, arguments and message with Approve / Deny and a reason; `POST`
 * applies the answer as the link's identity through channel `link`. A wrong signature or any changed
 * part of the link → 403, an expired link → 410, an unknown run or ticket → 404, a ticket no longer
 * waiting (answered, expired, run ended) → 409; nothing is applied in any of those cases, and no page
 * shows anything but the one ticket.
 */
export function registerLinkAnswerRoutes(
  app: Hono<HttpEnv>,
  options: { signer: LinkSigner; tenants: Record<string, MailboxService> },
): void {
  const path = '/links/:tenant/:runId/:ticketId';
  app.get(path, async (c) => {
    const checked = checkLink(c, options.signer, options.tenants);
    if ('refused' in checked) return checked.refused;
    const found = await notWaiting(c, checked.service, checked.claims);
    if (found.page) return found.page();
    const { ticket } = found.call;
    const url = new URL(c.req.url);
    return html(
      c,
      questionPage({
        toolName: found.call.toolName,
        arguments: ticket.pending.arguments,
        message: ticket.suspension.message,
        expiresAt: checked.claims.expiresAt,
        ...(checked.claims.approver ? { approver: checked.claims.approver } : {}),
        action: `${url.pathname}${url.search}`,
      }),
      200,
    );
  });

  app.post(path, async (c) => {
    const checked = checkLink(c, options.signer, options.tenants);
    if ('refused' in checked) return checked.refused;
    const form = await c.req.parseBody().catch(() => ({}) as Record<string, unknown>);
    const answer = form.answer;
    const reason = typeof form.reason === 'string' ? form.reason.trim().slice(0, 2000) : '';
    if (answer !== 'approve' && answer !== 'deny') {
      return html(c, noticePage('Invalid answer', 'Choose Approve or Deny.'), 422);
    }
    const { claims, service, signature } = checked;
    const decision = decisionOf(claims, signature, answer, reason || undefined);
    const found = await notWaiting(c, service, claims);
    // a repeat of an answer already applied is a duplicate: say so, whatever the run did since
    if (found.page && found.status !== 409) return found.page();
    const result = await service.commands.decide({ runId: claims.runId }, [decision]);
    const receipt = result.receipts[0];
    c.var.log.info({ runId: claims.runId, status: receipt?.status, channel: 'link' }, 'decision');
    if (receipt?.status === 'accepted' || receipt?.status === 'duplicate') {
      const what = answer === 'approve' ? 'approved' : 'denied';
      const title = receipt.status === 'accepted' ? 'Answer recorded' : 'Already recorded';
      return html(c, noticePage(title, `You ${what} this request. You can close this page.`), 200);
    }
    if (receipt?.reason === 'self_approval_forbidden') {
      return html(c, noticePage('Not allowed', receipt.message), 403);
    }
    return html(c, noticePage('Already answered', NOT_WAITING), 409);
  });
}
