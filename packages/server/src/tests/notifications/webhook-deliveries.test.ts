import { AwakenError } from '@awaken/contract';
import { createMemoryStores } from '@awaken/store-memory';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type NotifyFixture, PUBLIC_URL, createNotifyFixture } from '../../../test-support/notify-fixture';
import { type WebhookReceiver, startWebhookReceiver } from '../../../test-support/webhook-receiver';
import { verifyWebhook } from '../../notifications/webhook-signature';

const SECRET = 'hook-secret-0123456789';
const WAIT = { timeout: 10_000, interval: 20 };

let fx: NotifyFixture | undefined;
let receiver: WebhookReceiver | undefined;
afterEach(async () => {
  await fx?.close();
  await receiver?.close();
  fx = undefined;
  receiver = undefined;
});

const endpoint = (url: string, extra: Record<string, unknown> = {}) => ({
  id: 'ops',
  url,
  secret: SECRET,
  approver: 'dana',
  ...extra,
});

const ofType = (hook: WebhookReceiver, type: string) =>
  hook.received.filter((entry) => entry.json?.type === type);

describe('webhook notifications', () => {
  it('deliver each event once, signed, with the ticket and a fresh approval link that answers it', async () => {
    receiver = await startWebhookReceiver([200]);
    fx = await createNotifyFixture([endpoint(receiver.url)]);
    const hook = receiver;
    const { runId } = await fx.run('approve:1');

    const requested = await vi.waitFor(() => {
      const [entry] = ofType(hook, 'approval.requested');
      expect(entry).toBeDefined();
      return entry!;
    }, WAIT);
    expect(
      verifyWebhook({
        secret: SECRET,
        body: requested.body,
        header: requested.headers['awaken-signature'] as string,
      }),
    ).toBe(true);
    expect(requested.headers['awaken-delivery-id']).toBe(requested.json.id);
    expect(requested.headers['awaken-event']).toBe('approval.requested');
    expect(requested.json).toMatchObject({
      type: 'approval.requested',
      tenant: 'acme',
      data: {
        run: { runId, status: 'waiting' },
        ticket: {
          toolName: 'approve_me',
          arguments: { index: 0 },
          message: expect.any(String),
          agentPath: ['ops'],
          approvable: true,
        },
        link: { url: expect.stringMatching(`^${PUBLIC_URL}/links/acme/`), approver: 'dana' },
      },
    });
    await vi.waitFor(() => expect(ofType(hook, 'run.waiting')).toHaveLength(1), WAIT);

    // the link answers the ticket, as the approver it was issued for
    const link = new URL(requested.json.data.link.url);
    const answered = await fx.http.app.request(`${link.pathname}${link.search}`, {
      method: 'POST',
      body: new URLSearchParams({ answer: 'approve' }),
    });
    expect(answered.status).toBe(200);
    const decided = await vi.waitFor(() => {
      const [entry] = ofType(hook, 'approval.decided');
      expect(entry).toBeDefined();
      return entry!;
    }, WAIT);
    expect(decided.json.data).toMatchObject({
      ticket: { ticketId: requested.json.data.ticket.ticketId, toolName: 'approve_me' },
      decision: { approved: true, decidedBy: 'dana', channel: 'link' },
    });
    await vi.waitFor(
      async () => expect((await fx!.json(`/v1/runs/${runId}`)).body.status).toBe('done'),
      WAIT,
    );

    // every delivery was acknowledged once: one POST per delivery id, one delivery per event
    const { mailbox } = fx.outbox.stores;
    await vi.waitFor(async () => {
      const counts = await mailbox.countDispatches();
      expect(counts.queued + counts.claimed).toBe(0);
      expect(counts.acked).toBe(hook.received.length);
    }, WAIT);
    const ids = hook.received.map((entry) => entry.json.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(hook.received.map((entry) => entry.json.type).sort()).toEqual([
      'approval.decided',
      'approval.requested',
      'run.waiting',
    ]);
  });

  it('retry a 500 with exponential backoff under the same delivery id until it is accepted', async () => {
    receiver = await startWebhookReceiver([500, 500, 200]);
    fx = await createNotifyFixture([endpoint(receiver.url, { events: ['approval.requested'] })], {
      baseDelayMs: 150,
    });
    const hook = receiver;
    await fx.run('approve:1');
    await vi.waitFor(() => expect(hook.received).toHaveLength(3), WAIT);
    const [first, second, third] = hook.received as [
      (typeof hook.received)[0],
      (typeof hook.received)[0],
      (typeof hook.received)[0],
    ];
    expect(new Set(hook.received.map((entry) => entry.headers['awaken-delivery-id'])).size).toBe(1);
    expect(hook.received.map((entry) => entry.headers['awaken-delivery-attempt'])).toEqual(['1', '2', '3']);
    // 150 ms then 300 ms, each less at most 20 % jitter
    expect(second.at - first.at).toBeGreaterThanOrEqual(120);
    expect(third.at - second.at).toBeGreaterThanOrEqual(240);
    for (const entry of hook.received) {
      expect(
        verifyWebhook({
          secret: SECRET,
          body: entry.body,
          header: entry.headers['awaken-signature'] as string,
        }),
      ).toBe(true);
    }
    await vi.waitFor(
      async () => expect((await fx!.outbox.stores.mailbox.countDispatches()).acked).toBe(1),
      WAIT,
    );
  });

  it('dead-letter a delivery after its attempts, list it with its last error, and send it again on retry', async () => {
    receiver = await startWebhookReceiver([500]);
    fx = await createNotifyFixture([endpoint(receiver.url, { events: ['approval.requested'] })], {
      maxAttempts: 3,
      baseDelayMs: 20,
    });
    const hook = receiver;
    await fx.run('approve:1');
    const dead = await vi.waitFor(async () => {
      const listed = await fx!.json('/v1/notifications/deliveries?status=dead_letter');
      expect(listed.status).toBe(200);
      expect(listed.body.items).toHaveLength(1);
      return listed.body.items[0];
    }, WAIT);
    expect(dead).toMatchObject({
      status: 'dead_letter',
      attemptCount: 3,
      maxAttempts: 3,
      endpointId: 'ops',
      event: 'approval.requested',
      lastError: expect.stringContaining('HTTP 500'),
    });
    expect(hook.received).toHaveLength(3);

    hook.answer([200]);
    const retried = await fx.json(`/v1/notifications/deliveries/${dead.dispatchId}/retry`, {
      method: 'POST',
    });
    expect(retried.status).toBe(200);
    expect(retried.body.deliveryId).toBe(dead.deliveryId);
    const again = await fx.json(`/v1/notifications/deliveries/${dead.dispatchId}/retry`, { method: 'POST' });
    expect(again.body.dispatchId).toBe(retried.body.dispatchId);
    await vi.waitFor(() => expect(hook.received).toHaveLength(4), WAIT);
    expect(hook.received[3]?.headers['awaken-delivery-id']).toBe(dead.deliveryId);
    const notDead = await fx.json(`/v1/notifications/deliveries/${retried.body.dispatchId}/retry`, {
      method: 'POST',
    });
    expect(notDead.status).toBe(409);
    expect((await fx.json('/v1/notifications/deliveries/nope/retry', { method: 'POST' })).status).toBe(404);
  });

  it('never hold a run for a receiver that does not answer', async () => {
    receiver = await startWebhookReceiver([0]);
    fx = await createNotifyFixture([endpoint(receiver.url, { events: ['approval.requested'] })], {
      timeoutMs: 5_000,
    });
    const hook = receiver;
    const started = Date.now();
    const { runId } = await fx.run('approve:1');
    await vi.waitFor(() => expect(hook.received).toHaveLength(1), WAIT);
    const [request] = hook.received;
    // the receiver still holds the delivery: the run answers and finishes meanwhile
    const link = new URL(request!.json.data.link.url);
    await fx.http.app.request(`${link.pathname}${link.search}`, {
      method: 'POST',
      body: new URLSearchParams({ answer: 'deny' }),
    });
    await vi.waitFor(
      async () => expect((await fx!.json(`/v1/runs/${runId}`)).body.status).toBe('done'),
      WAIT,
    );
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(await fx.counters.get(`exec:${runId}:approve_me_0_0`)).toBe(0);
  });

  it('tell an expiry, and a run that failed', async () => {
    receiver = await startWebhookReceiver([200]);
    fx = await createNotifyFixture([endpoint(receiver.url, { events: ['approval.expired', 'run.failed'] })]);
    const hook = receiver;
    const expiring = await fx.run('expire:200');
    const expired = await vi.waitFor(() => {
      const [entry] = ofType(hook, 'approval.expired');
      expect(entry).toBeDefined();
      return entry!;
    }, WAIT);
    expect(expired.json.data).toMatchObject({
      run: { runId: expiring.runId },
      ticket: { toolName: 'approve_me', expiresAt: expect.any(Number) },
    });
    expect(expired.json.data.link).toBeUndefined();

    const failing = await fx.run('permanent');
    const failed = await vi.waitFor(() => {
      const [entry] = ofType(hook, 'run.failed');
      expect(entry).toBeDefined();
      return entry!;
    }, WAIT);
    expect(failed.json.data.run).toMatchObject({
      runId: failing.runId,
      status: 'done',
      termination: { type: 'error' },
    });
  });

  it("name the agent path of a sub-agent's question", async () => {
    receiver = await startWebhookReceiver([200]);
    fx = await createNotifyFixture([endpoint(receiver.url, { events: ['approval.requested'] })]);
    const hook = receiver;
    const { runId } = await fx.run('approve:1', 'lead');
    const requested = await vi.waitFor(() => {
      const [entry] = ofType(hook, 'approval.requested');
      expect(entry).toBeDefined();
      return entry!;
    }, WAIT);
    // one notification: the parent's ticket, naming the innermost tool and the agents down to it
    expect(requested.json.data).toMatchObject({
      run: { runId },
      ticket: { toolName: 'approve_me', arguments: { index: 0 }, agentPath: ['lead', 'helper'] },
    });
    expect(ofType(hook, 'approval.requested')).toHaveLength(1);
  });
});

describe('a notification whose enqueue failed', () => {
  it('is enqueued when the run dispatch, left unacknowledged, is delivered again', async () => {
    const stores = createMemoryStores();
    let refusals = 1;
    const enqueue = stores.mailbox.enqueue.bind(stores.mailbox);
    const mailbox = Object.assign(Object.create(stores.mailbox), {
      async enqueue(input: Parameters<typeof enqueue>[0]) {
        if (refusals > 0) {
          refusals -= 1;
          throw new AwakenError('store_failure', 'the delivery store is down', { retryable: true });
        }
        return enqueue(input);
      },
    });
    receiver = await startWebhookReceiver([200]);
    fx = await createNotifyFixture([endpoint(receiver.url, { events: ['approval.requested'] })], {
      notifyStores: { threadRuns: stores.threadRuns, mailbox },
    });
    const hook = receiver;
    const { runId } = await fx.run('approve:1');
    // the question is stored; its first settlement could not enqueue the notification, so its
    // dispatch was not acked: once its lease lapses it is reclaimed and settled again
    expect((await fx.json(`/v1/runs/${runId}`)).body.status).toBe('waiting');
    await vi.waitFor(() => expect(ofType(hook, 'approval.requested')).toHaveLength(1), WAIT);
    expect(refusals).toBe(0);
    expect(hook.received[0]?.json.data.run.runId).toBe(runId);
  });
});
