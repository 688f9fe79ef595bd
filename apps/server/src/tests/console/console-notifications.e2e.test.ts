import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { api } from '../../../test-support/app-process';
import { type ConsoleSession, startConsoleSession } from '../../../test-support/console-browser';
import { type WebhookReceiver, startWebhookReceiver } from '../../../test-support/webhook-receiver';

const SECRET = 'console-notify-secret-0123';
const SEEN = { timeout: 20_000, interval: 50 };
const THREAD = 'notify-console';

let receiver: WebhookReceiver;
let session: ConsoleSession;
let waitingRunId: string;

interface Delivery {
  deliveryId: string;
  dispatchId: string;
  event: string;
  status: string;
  attemptCount: number;
  maxAttempts: number;
  lastError?: string;
  requeuedAs?: string;
}

async function deliveries(status: string): Promise<Delivery[]> {
  const page = await api(session.app.url, `/v1/notifications/deliveries?status=${status}&limit=100`);
  expect(page.status).toBe(200);
  return page.body.items;
}

async function submit(input: string) {
  const started = await api(session.app.url, '/v1/runs', {
    body: { agentId: 'demo', input, threadId: THREAD, stream: false },
  });
  expect(started.status).toBe(202);
  return started.body as { runId: string };
}

beforeAll(async () => {
  // every delivery is answered 500: two fast attempts, then a dead letter
  receiver = await startWebhookReceiver(SECRET, [500]);
  session = await startConsoleSession({
    AWAKEN_WEBHOOKS: JSON.stringify([{ id: 'ops-hook', url: receiver.url, secret: SECRET }]),
    AWAKEN_WEBHOOK_MAX_ATTEMPTS: '2',
    AWAKEN_WEBHOOK_RETRY_MS: '10',
  });
  // a run that fails for good (a run.failed delivery and a mailbox dead letter), then a question on
  // the same thread (approval.requested and run.waiting), which keeps that dead letter from a requeue
  const failed = await submit('fail permanently');
  await vi.waitFor(async () => {
    const run = await api(session.app.url, `/v1/runs/${failed.runId}`);
    expect(run.body.status).toBe('done');
    expect((await api(session.app.url, '/v1/mailbox/counts')).body.counts.dead_letter).toBe(1);
  }, SEEN);
  const waiting = await submit('delete /tmp/notify-console.txt');
  waitingRunId = waiting.runId;
  await vi.waitFor(async () => {
    expect((await api(session.app.url, `/v1/runs/${waiting.runId}`)).body.status).toBe('waiting');
    const dead = await deliveries('dead_letter');
    expect(dead.map((item) => item.event).sort()).toEqual([
      'approval.requested',
      'run.failed',
      'run.waiting',
    ]);
  }, SEEN);
}, 120_000);
afterAll(async () => {
  await session?.close();
  await receiver?.close();
});

describe('webhook deliveries in the console, in Chromium', () => {
  it('shows dead-lettered deliveries with their error and attempts, and Retry shows what the server answered', async () => {
    const page = await session.open('#/notifications');
    const dead = page.getByRole('region', { name: 'Dead-lettered deliveries' });
    await expect.poll(() => dead.getByTestId('dead-delivery').count(), SEEN).toBe(3);
    await expect(dead.getByTestId('dead-delivery-count').textContent()).resolves.toBe('3');
    for (const text of await dead.getByTestId('delivery-error').allTextContents()) {
      expect(text).toBe(`${receiver.url}: HTTP 500`);
    }
    await expect(dead.getByText('2/2 attempts', { exact: false }).count()).resolves.toBe(3);
    // every attempt reached the receiver, signed: 3 deliveries × 2 attempts
    expect(receiver.received.length).toBe(6);
    expect(receiver.received.every((entry) => entry.verified)).toBe(true);
    await session.screenshot(page, 'notifications-dead-letters');

    // the receiver is fixed; retry the question's delivery from the page
    receiver.answer([200]);
    const asked = (await deliveries('dead_letter')).find((item) => item.event === 'approval.requested');
    if (!asked) throw new Error('no dead-lettered approval.requested');
    const row = dead.locator(`[data-delivery-id="${asked.deliveryId}"]`);
    await row.getByRole('button', { name: `Retry delivery ${asked.deliveryId}` }).click();
    const answer = row.getByTestId('retry-answer');
    await answer.waitFor(SEEN);
    // the answer is the server's: the new dispatch the dead letter now names
    const requeuedAs = await vi.waitFor(async () => {
      const again = (await deliveries('dead_letter')).find((item) => item.dispatchId === asked.dispatchId);
      expect(again?.requeuedAs).toBeTruthy();
      return again?.requeuedAs as string;
    }, SEEN);
    await expect(answer.textContent()).resolves.toMatch(
      new RegExp(`^Retried as ${requeuedAs.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: queued, 0/2 attempts`),
    );
    await vi.waitFor(() => expect(receiver.processed.has(asked.deliveryId)).toBe(true), SEEN);
    // once delivered it is listed as delivered, and the dead letter says what it was retried as
    await row.getByTestId('retried-as').filter({ hasText: requeuedAs }).waitFor(SEEN);
    await page.getByRole('tab', { name: 'delivered' }).click();
    await page.locator(`[data-testid="delivery-row"][data-delivery-id="${asked.deliveryId}"]`).waitFor(SEEN);
    await session.screenshot(page, 'notifications-retried');
    expect(session.problems).toEqual([]);
  });

  it('the mailbox retry-all lists the dead letters it could not requeue, with why', async () => {
    const [letter] = (await api(session.app.url, '/v1/mailbox/dispatches?status=dead_letter')).body.items;
    const page = await session.open('#/mailbox');
    const dead = page.getByRole('region', { name: 'Dead letters' });
    await dead.getByRole('button', { name: 'Retry all 1' }).click();
    await dead.getByRole('button', { name: 'Confirm' }).click();
    const notice = page.getByRole('status').filter({ hasText: 'could not be requeued now' });
    await notice.waitFor(SEEN);
    await expect(notice.textContent()).resolves.toContain('Requeued 0 dead letters. 1 dead letter could not');
    const failed = notice.getByTestId('retry-failed').locator(`li[data-dispatch-id="${letter.dispatchId}"]`);
    await expect(failed.textContent()).resolves.toMatch(/\(conflict\): .*waiting run/);
    await session.screenshot(page, 'mailbox-retry-all-failed');

    // its new run was reserved, not started: once the thread is free, Requeue starts it
    const reserved = (await api(session.app.url, `/v1/mailbox/dispatches/${letter.dispatchId}`)).body;
    expect(reserved.requeuedRunId).toBeTruthy();
    expect((await api(session.app.url, `/v1/runs/${reserved.requeuedRunId}`)).status).toBe(404);
    expect((await api(session.app.url, `/v1/runs/${waitingRunId}/cancel`, { body: {} })).status).toBe(200);
    const row = dead.locator(`[data-run-id="${letter.runId}"]`);
    await row.getByRole('button', { name: 'Requeue' }).click();
    await row.getByRole('button', { name: 'Confirm' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: `Requeued as run ${reserved.requeuedRunId}.` })
      .waitFor(SEEN);
    expect(session.problems).toEqual([]);
  });
});
