import { createMemoryStores } from '@awaken/store-memory';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type DeliveryStores, deliveryBackends } from '../../../test-support/delivery-backends';
import { type NotifyFixture, createNotifyFixture } from '../../../test-support/notify-fixture';
import { type WebhookReceiver, startWebhookReceiver } from '../../../test-support/webhook-receiver';
import { createNotificationOutbox } from '../../notifications/create-notification-outbox';

const SECRET = 'hook-secret-0123456789';
const WAIT = { timeout: 10_000, interval: 20 };

const backends = deliveryBackends('purge');

let fx: NotifyFixture | undefined;
let receiver: WebhookReceiver | undefined;
let stores: DeliveryStores | undefined;
afterEach(async () => {
  await fx?.close();
  await receiver?.close();
  await stores?.close();
  fx = undefined;
  receiver = undefined;
  stores = undefined;
});

const ofType = (hook: WebhookReceiver, type: string) =>
  hook.received.filter((entry) => entry.json?.type === type);

const endpoint = (url: string) => ({ id: 'ops', url, secret: SECRET, approver: 'dana' });

describe.each(backends)('purging delivered notifications ($name)', ({ open }) => {
  it('removes ended deliveries but keeps a marker: a run settled again sends nothing again', async () => {
    stores = open();
    receiver = await startWebhookReceiver([200]);
    const hook = receiver;
    fx = await createNotifyFixture([endpoint(hook.url)], {
      notifyStores: { threadRuns: stores.threadRuns, mailbox: stores.mailbox },
    });
    const { runId } = await fx.run('approve:1');
    await vi.waitFor(async () => {
      expect(ofType(hook, 'approval.requested')).toHaveLength(1);
      expect(ofType(hook, 'run.waiting')).toHaveLength(1);
      expect((await stores!.mailbox.countDispatches()).acked).toBe(2);
    }, WAIT);

    // everything that ended before "now + 1" goes: both deliveries, their payloads with them
    const purged = await fx.json('/v1/notifications/purge', { body: { olderThan: Date.now() + 1_000 } });
    expect(purged).toEqual({ status: 200, body: { marked: 2, purged: 2 } });
    expect(Object.values(await stores.mailbox.countDispatches()).reduce((a, b) => a + b, 0)).toBe(0);
    const [requested] = ofType(hook, 'approval.requested');
    const marker = await fx.outbox.load(requested!.json.id);
    expect(marker).toMatchObject({ event: 'approval.requested', endpointId: 'ops', data: {} });

    // another process (no memory of what it enqueued) settles the same stored run again
    const record = await fx.service.stores.threadRuns.getRun(runId);
    const other = createNotificationOutbox({
      tenant: 'acme',
      endpoints: [endpoint(hook.url)],
      stores: { threadRuns: stores.threadRuns, mailbox: stores.mailbox },
    });
    await other.record(record!);
    await other.record(record!);
    expect(await stores.mailbox.countDispatches()).toMatchObject({ queued: 0, claimed: 0 });

    // what happens next is still told, once
    const ticketId = record!.waiting!.tickets[0]!.ticketId;
    const decided = await fx.json(`/v1/runs/${runId}/decision`, {
      body: { ticketId, result: { approved: true } },
    });
    expect(decided.status).toBe(200);
    await vi.waitFor(() => expect(ofType(hook, 'approval.decided')).toHaveLength(1), WAIT);
    expect(ofType(hook, 'approval.requested')).toHaveLength(1);
    expect(ofType(hook, 'run.waiting')).toHaveLength(1);
  });
});

describe('the delivery worker sweep', () => {
  it('purges deliveries past their retention by itself and keeps dead letters', async () => {
    receiver = await startWebhookReceiver([200]);
    const hook = receiver;
    const memory = createMemoryStores();
    // "down" refuses every connection: with one attempt its deliveries are dead-lettered at once
    fx = await createNotifyFixture(
      [endpoint(hook.url), { ...endpoint('http://127.0.0.1:1/hook'), id: 'down' }],
      {
        notifyStores: memory,
        maxAttempts: 1,
        retainDeliveredMs: 0,
        purgeEveryMs: 50,
      },
    );
    await fx.run('approve:1');
    await vi.waitFor(() => expect(hook.received).toHaveLength(2), WAIT);
    // the sweep runs every 50 ms with no retention: the two delivered go, each leaving its marker;
    // the two dead letters stay, with what they carry, for an operator to retry
    await vi.waitFor(async () => {
      expect(await memory.mailbox.countDispatches()).toMatchObject({ acked: 0, dead_letter: 2 });
    }, WAIT);
    const threads = await memory.threadRuns.listThreads({ limit: 10 });
    const marked = threads.items.filter((thread) => typeof thread.metadata.purgedAt === 'number');
    expect(marked.map((thread) => (thread.metadata.delivery as { endpointId: string }).endpointId)).toEqual([
      'ops',
      'ops',
    ]);
    const dead = await fx.json('/v1/notifications/deliveries?status=dead_letter');
    expect(dead.body.items).toHaveLength(2);
    for (const item of dead.body.items) expect(item.data).toMatchObject({ run: expect.any(Object) });
    expect(hook.received).toHaveLength(2);
  });

  it('refuses a purge body that is not a time (422 naming the field), and purges nothing', async () => {
    receiver = await startWebhookReceiver([200]);
    fx = await createNotifyFixture([endpoint(receiver.url)]);
    await fx.run('approve:1');
    await vi.waitFor(
      async () => expect((await fx!.outbox.stores.mailbox.countDispatches()).acked).toBe(2),
      WAIT,
    );
    for (const body of [{}, { olderThan: 'yesterday' }, { olderThan: -1 }, { olderThan: 1.5 }]) {
      const answer = await fx.json('/v1/notifications/purge', { body });
      expect(answer.status).toBe(422);
      expect(JSON.stringify(answer.body)).toContain('olderThan');
    }
    expect((await fx.outbox.stores.mailbox.countDispatches()).acked).toBe(2);
  });
});
