/** Slack Block Kit messages for notifications (posted to a Slack incoming webhook). */

/** The `action_id`s of the card's buttons; the interaction endpoint answers the first two. */
export const SLACK_APPROVE_ACTION = 'awaken_approve';
export const SLACK_DENY_ACTION = 'awaken_deny';
export const SLACK_OPEN_ACTION = 'awaken_open';

/** What a card shows: the question and the signed link its buttons are bound to. */
export interface SlackCardInput {
  toolName: string;
  arguments?: unknown;
  message?: string;
  agentPath?: readonly string[];
  expiresAt?: number;
  /** The approval link (absolute URL): the Open button's URL; its path is the Approve / Deny value. */
  linkUrl: string;
}

type PlainText = { type: 'plain_text'; text: string };
const plain = (text: string): PlainText => ({ type: 'plain_text', text });
const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);
/** mrkdwn control characters escaped as Slack asks (&, <, >). */
const escapeMrkdwn = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * The approval card: header, message, arguments, agent path and expiry, and an actions block with
 * Approve (primary) and Deny (danger), whose `value` is the signed link's path and query — the only
 * credential the interaction endpoint accepts for the ticket — and an Open button to the link page.
 */
export function slackApprovalCard(input: SlackCardInput): Record<string, unknown> {
  const link = new URL(input.linkUrl);
  const bound = `${link.pathname}${link.search}`;
  const args = JSON.stringify(input.arguments ?? null, null, 2) ?? 'null';
  const context: string[] = [];
  if (input.agentPath && input.agentPath.length > 0) context.push(`Agent: ${input.agentPath.join(' › ')}`);
  if (input.expiresAt !== undefined) {
    const seconds = Math.floor(input.expiresAt / 1000);
    context.push(
      `Expires <!date^${seconds}^{date_short_pretty} {time}|${new Date(input.expiresAt).toISOString()}>`,
    );
  }
  return {
    text: clip(`Approval needed: ${input.toolName}${input.message ? ` — ${input.message}` : ''}`, 3000),
    blocks: [
      { type: 'header', text: plain(clip(`Approve ${input.toolName}?`, 150)) },
      ...(input.message
        ? [{ type: 'section', text: { type: 'mrkdwn', text: clip(escapeMrkdwn(input.message), 3000) } }]
        : []),
      { type: 'section', text: { type: 'mrkdwn', text: `\`\`\`${clip(escapeMrkdwn(args), 2900)}\`\`\`` } },
      ...(context.length > 0
        ? [{ type: 'context', elements: context.map((text) => ({ type: 'mrkdwn', text })) }]
        : []),
      {
        type: 'actions',
        block_id: 'awaken_approval',
        elements: [
          {
            type: 'button',
            action_id: SLACK_APPROVE_ACTION,
            style: 'primary',
            text: plain('Approve'),
            value: bound,
          },
          {
            type: 'button',
            action_id: SLACK_DENY_ACTION,
            style: 'danger',
            text: plain('Deny'),
            value: bound,
          },
          { type: 'button', action_id: SLACK_OPEN_ACTION, text: plain('Open'), url: input.linkUrl },
        ],
      },
    ],
  };
}

/** A one-line message for the other events (decided, expired, waiting, failed). */
export function slackTextMessage(text: string): Record<string, unknown> {
  return { text: clip(text, 3000) };
}
