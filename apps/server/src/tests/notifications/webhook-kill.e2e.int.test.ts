import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, describe, expect, inject, it, vi } from 'vitest';
import { tenantSchema } from '../../create-tenant-stores';
import { type AppProcess, api, readSse, startAppProcess } from '../../../test-support/app-process';
import { type WebhookReceiver, startWebhookReceiver } from '../../../test-support/webhook-receiver';

const SECRET = 'hook-secret-0123456789';
const WAIT = { timeout: 20_000, interval: 50 };

const receivers: WebhookReceiver[] = [];
const apps: AppProcess[] = [];
const schema = `hk_${randomUUID().replaceAll('-', '').slice(0, 12)}`;
afterAll(async () => {
  await Promise.all(apps.map((app) => app.kill()));
  await Promise.all(receivers.map((receiver) => receiver.close()));
  const admin = new pg.Client({ connectionString: inject('postgresUrl') });
  await admin.connect();
  for (const name of [tenantSchema(schema, 'default'), tenantSchema(`${schema}n`, 'default')])
    await admin.query(`DROP SCHEMA IF EXISTS "${name}" CASCADE`);
  await admin.end();
});

const backends = {
  Redis: () => ({ REDIS_URL: inject('redisUrl'), AWAKEN_REDIS_PREFIX: `hooks-${randomUUID().slice(0, 8)}` }),
  PostgreSQL: () => ({ DATABASE_URL: inject('postgresUrl'), AWAKEN_PG_SCHEMA: schema }),
};

describe.each(Object.entries(backends))(
  'webhook deliveries across a kill -9 of the server (%s)',
  (_, backend) => {
    it('the receiver processes exactly one signed delivery per event: the held one is sent again, same id, after the restart', async () => {
      const hook = await startWebhookReceiver(SECRET, [0, 200]);
      receivers.push(hook);
      const env = {
        ...backend(),
        AWAKEN_DEMO_DELAY_MS: '5',
        AWAKEN_LEASE_MS: '1000',
        AWAKEN_LINK_SECRET: 'link-secret-0123456789abcdef0123456789',
        AWAKEN_WEBHOOK_TIMEOUT_MS: '500',
        AWAKEN_WEBHOOK_RETRY_MS: '100',
        AWAKEN_WEBHOOKS: JSON.stringify([
          {
            id: 'ops',
            url: hook.url,
            secret: SECRET,
            approver: 'dana',
            events: ['approval.requested', 'approval.decided'],
          },
        ]),
      };
      const first = await startAppProcess(env);
      apps.push(first);
      const response = await fetch(`${first.url}/v1/runs`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ agentId: 'demo', input: 'delete /tmp/old.log' }),
      });
      const runId = response.headers.get('x-run-id') ?? '';
      expect((await readSse(response)).events.at(-1)).toMatchObject({
        type: 'run_finish',
        status: 'waiting',
      });

      // the question's delivery reached the receiver, which holds it: the server dies meanwhile
      await vi.waitFor(() => expect(hook.received).toHaveLength(1), WAIT);
      await first.kill();
      const second = await startAppProcess(env);
      apps.push(second);

      await vi.waitFor(() => expect(hook.processed.size).toBe(1), WAIT);
      const deliveryIds = new Set(hook.received.map((entry) => entry.headers['awaken-delivery-id']));
      expect(deliveryIds.size).toBe(1);
      expect(hook.received.every((entry) => entry.verified)).toBe(true);
      const [requested] = [...hook.processed.values()];
      expect(requested?.json).toMatchObject({
        type: 'approval.requested',
        data: { run: { runId }, ticket: { toolName: 'delete_file' }, link: { approver: 'dana' } },
      });

      // the link it carries (signed with the deployment's key) answers the ticket on the new process
      const link = new URL(requested?.json.data.link.url);
      const answered = await fetch(`${second.url}${link.pathname}${link.search}`, {
        method: 'POST',
        body: new URLSearchParams({ answer: 'approve' }),
      });
      expect(answered.status).toBe(200);
      await vi.waitFor(() => expect(hook.processed.size).toBe(2), WAIT);
      const types = [...hook.processed.values()].map((entry) => entry.json.type).sort();
      expect(types).toEqual(['approval.decided', 'approval.requested']);
      await vi.waitFor(async () => {
        const acked = await api(second.url, '/v1/notifications/deliveries?status=acked');
        expect(acked.body.items).toHaveLength(2);
      }, WAIT);
      const pending = await Promise.all(
        ['queued', 'claimed', 'dead_letter'].map((status) =>
          api(second.url, `/v1/notifications/deliveries?status=${status}`),
        ),
      );
      expect(pending.map((listed) => listed.body.items.length)).toEqual([0, 0, 0]);
    });
  },
);
