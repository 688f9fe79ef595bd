import { readFileSync } from 'node:fs';
import { webhookEndpointSchema } from '@awaken/server';
import { z } from 'zod';

/** One entry of `AWAKEN_WEBHOOKS`: a webhook endpoint and its tenant (default `default`). */
const appEndpointSchema = webhookEndpointSchema.extend({
  id: webhookEndpointSchema.shape.id.optional(),
  tenant: z.string().min(1).default('default'),
});

/** A configured endpoint of the reference app: its tenant and the endpoint as the server takes it. */
export type AppWebhook = z.output<typeof appEndpointSchema> & { id: string };

/**
 * `AWAKEN_WEBHOOKS`: a JSON array of endpoints, inline or `@<path>` of a JSON file. Each is
 * `{ url, secret, tenant?, id?, events?, approver?, format? }`; `id` defaults to `webhook-<n>` (its
 * position): give one, since a delivery id is derived from it.
 */
export const webhooksVariable = z
  .string()
  .optional()
  .transform((value, context): AppWebhook[] => {
    if (value === undefined || value.trim() === '') return [];
    let text = value;
    if (value.startsWith('@')) {
      try {
        text = readFileSync(value.slice(1), 'utf8');
      } catch (error) {
        context.addIssue({
          code: 'custom',
          message: `AWAKEN_WEBHOOKS: cannot read ${value.slice(1)} (${(error as Error).message})`,
        });
        return z.NEVER;
      }
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      context.addIssue({
        code: 'custom',
        message: 'AWAKEN_WEBHOOKS: not valid JSON (a JSON array, or @<path> of a JSON file)',
      });
      return z.NEVER;
    }
    const parsed = z.array(appEndpointSchema).safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      context.addIssue({
        code: 'custom',
        message: `AWAKEN_WEBHOOKS: [${issue?.path.join('.')}] ${issue?.message}`,
      });
      return z.NEVER;
    }
    const endpoints = parsed.data.map((entry, index) => ({
      ...entry,
      id: entry.id ?? `webhook-${index + 1}`,
    }));
    const keys = endpoints.map((entry) => `${entry.tenant}/${entry.id}`);
    const twice = keys.find((key, index) => keys.indexOf(key) !== index);
    if (twice) {
      context.addIssue({ code: 'custom', message: `AWAKEN_WEBHOOKS: endpoint ${twice} is listed twice` });
      return z.NEVER;
    }
    return endpoints;
  });
