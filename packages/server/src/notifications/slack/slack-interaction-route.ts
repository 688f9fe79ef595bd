import type { Hono } from 'hono';
import { errorBody } from '../../http/error-table';
import type { HttpEnv } from '../../http/http-types';
import { decisionOf } from '../../http/links/link-answer-routes';
import { type LinkSigner, parseLinkPath } from '../../http/links/link-signer';
import type { MailboxService } from '../../types';
import { SLACK_APPROVE_ACTION, SLACK_DENY_ACTION } from './slack-card';
import { verifySlackRequest } from './slack-signature';

/** The part of Slack's `block_actions` payload the endpoint reads. */
interface BlockActions {
  type?: string;
  user?: { id?: string; username?: string; name?: string };
  actions?: Array<{ action_id?: string; value?: string }>;
}

function payloadOf(body: string): BlockActions | undefined {
  try {
    const payload = new URLSearchParams(body).get('payload');
    const parsed: unknown = payload ? JSON.parse(payload) : undefined;
    return typeof parsed === 'object' && parsed !== null ? (parsed as BlockActions) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * `POST /slack/interactions`: the Slack app's interactivity request URL. A request without a valid
 * Slack signature (`X-Slack-Signature` v0 over `v0:<timestamp>:<body>`, timestamp within 5 minutes)
 * → 401 and nothing is read. An Approve / Deny click carries the signed approval link the card was
 * made with (`value`): its signature, expiry and tenant are checked as the link page checks them (a
 * bad link → 403, an expired one → 410) and the answer is applied as the link's answer would be —
 * same decision id, so a click in Slack and on the link page count once. Other actions (Open) are
 * acknowledged and ignored. Answers `{ status }`: `accepted`, `duplicate` or `not_waiting`.
 */
export function registerSlackInteractionRoute(
  app: Hono<HttpEnv>,
  options: { signingSecret: string; signer: LinkSigner; tenants: Record<string, MailboxService> },
): void {
  app.post('/slack/interactions', async (c) => {
    const body = await c.req.text();
    const verified = verifySlackRequest({
      signingSecret: options.signingSecret,
      body,
      timestamp: c.req.header('x-slack-request-timestamp'),
      signature: c.req.header('x-slack-signature'),
    });
    if (!verified) return c.json(errorBody('unauthorized', 'invalid Slack signature'), 401);
    const payload = payloadOf(body);
    if (!payload)
      return c.json(errorBody('validation_failed', 'payload: not a Slack interaction payload'), 422);
    const action = payload.actions?.[0];
    const answer =
      action?.action_id === SLACK_APPROVE_ACTION
        ? 'approve'
        : action?.action_id === SLACK_DENY_ACTION
          ? 'deny'
          : undefined;
    if (payload.type !== 'block_actions' || !answer) return c.json({ status: 'ignored' }, 200);
    const link = parseLinkPath(action?.value ?? '');
    const service =
      link && Object.hasOwn(options.tenants, link.claims.tenant)
        ? options.tenants[link.claims.tenant]
        : undefined;
    if (!link || !service || !options.signer.verify(link.claims, link.signature)) {
      return c.json(errorBody('link_invalid', 'the approval link of this action is not valid'), 403);
    }
    if (Date.now() >= link.claims.expiresAt) {
      return c.json(errorBody('link_expired', 'the approval link of this action has expired'), 410);
    }
    c.var.ids.runId = link.claims.runId;
    const decision = decisionOf(link.claims, link.signature, answer);
    const slackUser = payload.user?.username ?? payload.user?.name ?? payload.user?.id;
    const withUser = slackUser
      ? {
          ...decision,
          context: { ...decision.context, slack: { user: slackUser, userId: payload.user?.id ?? '' } },
        }
      : decision;
    const result = await service.commands.decide({ runId: link.claims.runId }, [withUser]);
    const receipt = result.receipts[0];
    c.var.log.info({ runId: link.claims.runId, status: receipt?.status, channel: 'slack' }, 'decision');
    if (receipt?.status === 'accepted' || receipt?.status === 'duplicate')
      return c.json({ status: receipt.status }, 200);
    return c.json({ status: 'not_waiting', reason: receipt?.reason ?? 'not_waiting' }, 200);
  });
}
