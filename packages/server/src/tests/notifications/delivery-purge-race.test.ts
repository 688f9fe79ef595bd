import type { MailboxStore } from '@awaken/contract';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type DeliveryStores, deliveryBackends } from '../../../test-support/delivery-backends';
import { type NotifyFixture, createNotifyFixture } from '../../../test-support/notify-fixture';
import { type WebhookReceiver, startWebhookReceiver } from '../../../test-support/webhook-receiver';

const WAIT = { timeout: 10_000, interval: 20 };
const endpoint = (url: string) => ({ id: 'ops', url, secret: 'hook-secret-0123456789', approver: 'dana' });

const backends = deliveryBackends('purge-race');

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

const total = async (mailbox: MailboxStore) =>
  Object.values(await mailbox.countDispatches()).reduce((sum, count) => sum + count, 0);

describe.each(backends)('a purged delivery enqueued again by a racing settlement ($name)', ({ open }) => {
  it('is acked by the delivery worker without being sent: one delivery per event across the purge', async () => {
    stores = open();
    const { mailbox, threadRuns } = stores;
    receiver = await startWebhookReceiver([200]);
    const hook = receiver;
    fx = await createNotifyFixture([endpoint(hook.url)], { notifyStores: { threadRuns, mailbox } });
    await fx.run('approve:1');
    await vi.waitFor(async () => {
      expect(hook.received).toHaveLength(2);
      expect((await mailbox.countDispatches()).acked).toBe(2);
    }, WAIT);
    const bytes = async (id: string) => JSON.stringify((await threadRuns.getThread(id))?.metadata).length;
    const ids = hook.received.map((entry) => entry.json.id as string);
    const before = (await bytes(ids[0]!)) + (await bytes(ids[1]!));

    const purged = await fx.json('/v1/notifications/purge', { body: { olderThan: Date.now() + 1_000 } });
    expect(purged.body).toEqual({ marked: 2, purged: 2 });
    expect(await total(mailbox)).toBe(0);
    // the bulk is gone (the payload, the ticket's arguments and message); the marker is what stays
    const after = (await bytes(ids[0]!)) + (await bytes(ids[1]!));
    expect(after).toBeLessThan(before);
    expect(await fx.outbox.load(ids[0]!)).toMatchObject({ data: {}, purgedAt: expect.any(Number) });

    // what a settlement that checked before the purge marked the delivery, and enqueued after the purge
    // removed its dispatch, leaves: a dispatch of the purged delivery, under the same delivery id
    for (const id of ids) await mailbox.enqueue({ dispatchId: id, threadId: id, runId: id, maxAttempts: 4 });
    await vi.waitFor(async () => {
      for (const id of ids) expect((await mailbox.loadDispatch(id))?.status).toBe('acked');
    }, WAIT);
    // acked without a POST: the receiver still has exactly one delivery per event
    expect(hook.received).toHaveLength(2);
    expect(new Set(hook.received.map((entry) => entry.json.id)).size).toBe(2);
  });
});
