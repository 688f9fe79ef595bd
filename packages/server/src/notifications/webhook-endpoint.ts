import { AwakenError, formatZodIssues } from '@awaken/contract';
import { z } from 'zod';

/** The events a webhook endpoint may subscribe to. */
export const notificationEventSchema = z.enum([
  'approval.requested',
  'approval.decided',
  'approval.expired',
  'run.waiting',
  'run.failed',
]);
export type NotificationEvent = z.infer<typeof notificationEventSchema>;

/** True when fetch can POST to `url`: it parses, and carries no credentials (fetch refuses those). */
function fetchable(url: string): boolean {
  const parsed = URL.parse(url);
  return parsed !== null && parsed.username === '' && parsed.password === '';
}

/**
 * One webhook endpoint of a tenant: where deliveries go (`url`), the HMAC key they are signed with
 * (`secret`, at least 16 characters), the events it receives (default: all), the approver the
 * approval links of `approval.requested` are issued for, and the body's `format` — `awaken` (the
 * signed JSON event) or `slack` (a Block Kit message for a Slack incoming webhook, with Approve / Deny
 * buttons answered through the Slack interaction endpoint).
 */
export const webhookEndpointSchema = z
  .object({
    id: z.string().regex(/^[A-Za-z0-9_.-]{1,64}$/, 'letters, digits, _ . - (at most 64)'),
    url: z
      .string()
      .regex(/^https?:\/\/\S+$/, 'an http(s) URL')
      .refine(fetchable, 'a URL fetch can send to (valid host, no user:password@)'),
    secret: z.string().min(16, 'at least 16 characters'),
    events: z.array(notificationEventSchema).min(1).optional(),
    approver: z.string().min(1).max(128).optional(),
    format: z.enum(['awaken', 'slack']).default('awaken'),
  })
  .strict();
export type WebhookEndpoint = z.output<typeof webhookEndpointSchema>;
export type WebhookEndpointInput = z.input<typeof webhookEndpointSchema>;

/** Validates endpoints (ids unique): `invalid_config` naming the field otherwise. */
export function parseWebhookEndpoints(input: unknown): WebhookEndpoint[] {
  const parsed = z.array(webhookEndpointSchema).safeParse(input);
  if (!parsed.success) {
    throw new AwakenError(
      'invalid_config',
      `invalid webhook endpoints: ${formatZodIssues(parsed.error.issues)}`,
    );
  }
  const ids = parsed.data.map((endpoint) => endpoint.id);
  const twice = ids.find((id, index) => ids.indexOf(id) !== index);
  if (twice) throw new AwakenError('invalid_config', `webhook endpoint id "${twice}" is listed twice`);
  return parsed.data;
}

/** True when `endpoint` receives `event`. */
export function subscribes(endpoint: WebhookEndpoint, event: NotificationEvent): boolean {
  return endpoint.events === undefined || endpoint.events.includes(event);
}
