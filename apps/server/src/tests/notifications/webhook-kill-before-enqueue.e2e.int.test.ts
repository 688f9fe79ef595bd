import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, describe, expect, inject, it, vi } from 'vitest';
import { tenantSchema } from '../../create-tenant-stores';
import { type AppProcess, api } from '../../../test-support/app-process';
import { startAppProcess } from '../../../test-support/app-process';
import { type WebhookReceiver, startWebhookReceiver } from '../../../test-support/webhook-receiver';

const SECRET = 'hook-secret-0123456789';
const WAIT = { timeout: 20_000, interval: 50 };
const schema = `hb_${randomUUID().replaceAll('-', '').slice(0, 12)}`;
const notifySchema = tenantSchema(`${schema}n`, 'default');

const receivers: WebhookReceiver[] = [];
const apps: AppProcess[] = [];
const clients: pg.Client[] = [];
afterAll(async () => {
  await Promise.all(apps.map((app) => app.kill()));
  await Promise.all(receivers.map((receiver) => receiver.close()));
  for (const client of clients) await client.end().catch(() => {});
  const admin = new pg.Client({ connectionString: inject('postgresUrl') });
  await admin.connect();
  for (const name of [tenantSchema(schema, 'default'), notifySchema])
    await admin.query(`DROP SCHEMA IF EXISTS "${name}" CASCADE`);
  await admin.end();
});

async function client(): Promise<pg.Client> {
  const connection = new pg.Client({ connectionString: inject('postgresUrl') });
  await connection.connect();
  clients.push(connection);
  return connection;
}

/**
 * The crash window the guide names: the checkpoint stored the question, the process dies before the
 * outbox holds its notification (the outbox write is held by a lock on the delivery table, then the
 * server is killed -9). After the restart the run's dispatch is delivered again, finds the waiting
 * run and enqueues the notification: the receiver gets exactly one `approval.requested`.
 */
describe('a kill -9 between the stored question and its notification (PostgreSQL)', () => {
  it('the restarted server notifies the question once', async () => {
    const hook = await startWebhookReceiver(SECRET, [200]);
    receivers.push(hook);
    const env = {
      DATABASE_URL: inject('postgresUrl'),
      AWAKEN_PG_SCHEMA: schema,
      AWAKEN_DEMO_DELAY_MS: '5',
      AWAKEN_LEASE_MS: '1000',
      AWAKEN_WEBHOOK_TIMEOUT_MS: '500',
      AWAKEN_WEBHOOK_RETRY_MS: '100',
      AWAKEN_WEBHOOKS: JSON.stringify([
        { id: 'ops', url: hook.url, secret: SECRET, events: ['approval.requested'] },
      ]),
    };
    const first = await startAppProcess(env);
    apps.push(first);
    // hold every write of a notification: the outbox's first write is its thread
    const locker = await client();
    await locker.query('BEGIN');
    await locker.query(`LOCK TABLE "${notifySchema}".threads IN ACCESS EXCLUSIVE MODE`);

    const started = await api(first.url, '/v1/runs', {
      body: { agentId: 'demo', input: 'delete /tmp/old.log', stream: false },
    });
    expect(started.status).toBe(202);
    const runId = started.body.runId as string;
    await vi.waitFor(async () => {
      expect((await api(first.url, `/v1/runs/${runId}`)).body.status).toBe('waiting');
    }, WAIT);
    // the settlement is stuck on the outbox write (a session waits on the lock)
    const watcher = await client();
    await vi.waitFor(async () => {
      const waiting = await watcher.query(
        "SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE '%tr_create_thread%'",
      );
      expect(waiting.rows[0].n).toBeGreaterThan(0);
    }, WAIT);
    await first.kill();
    await locker.query('ROLLBACK');
    expect(hook.received).toHaveLength(0);

    const second = await startAppProcess(env);
    apps.push(second);
    await vi.waitFor(() => expect(hook.processed.size).toBe(1), WAIT);
    await vi.waitFor(async () => {
      const acked = await api(second.url, '/v1/notifications/deliveries?status=acked');
      expect(acked.body.items).toHaveLength(1);
    }, WAIT);
    const [requested] = [...hook.processed.values()];
    expect(requested?.json).toMatchObject({
      type: 'approval.requested',
      data: { run: { runId }, ticket: { toolName: 'delete_file' } },
    });
    expect(hook.received).toHaveLength(1);
    expect(hook.received[0]?.verified).toBe(true);
  }, 60_000);
});
