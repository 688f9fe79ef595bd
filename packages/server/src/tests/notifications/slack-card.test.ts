import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  type NotifyFixture,
  PUBLIC_URL,
  SLACK_SECRET,
  createNotifyFixture,
} from '../../../test-support/notify-fixture';
import { type WebhookReceiver, startWebhookReceiver } from '../../../test-support/webhook-receiver';
import { signSlackRequest } from '../../notifications/slack/slack-signature';

const WAIT = { timeout: 10_000, interval: 20 };

let fx: NotifyFixture | undefined;
let receiver: WebhookReceiver | undefined;
afterEach(async () => {
  await fx?.close();
  await receiver?.close();
  fx = undefined;
  receiver = undefined;
});

async function setup() {
  receiver = await startWebhookReceiver([200]);
  fx = await createNotifyFixture([
    {
      id: 'slack',
      url: receiver.url,
      secret: 'unused-by-slack-0123',
      approver: 'dana',
      format: 'slack',
      events: ['approval.requested'],
    },
  ]);
  return { fx, hook: receiver };
}

/** The card a run's question posted to the (local) Slack incoming webhook. */
async function cardOf(hook: WebhookReceiver, index: number) {
  return vi.waitFor(() => {
    const card = hook.received[index]?.json;
    expect(card).toBeDefined();
    return card;
  }, WAIT);
}

/** A `block_actions` interaction as Slack sends it: form-encoded `payload`, signed. */
function interaction(value: string, actionId: string, options: { secret?: string; timestamp?: number } = {}) {
  const payload = {
    type: 'block_actions',
    user: { id: 'U024BE7LH', username: 'dana.s', team_id: 'T0001' },
    actions: [{ type: 'button', action_id: actionId, block_id: 'awaken_approval', value, action_ts: '1' }],
  };
  const body = new URLSearchParams({ payload: JSON.stringify(payload) }).toString();
  const timestamp = options.timestamp ?? Math.floor(Date.now() / 1000);
  return {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      'x-slack-request-timestamp': String(timestamp),
      'x-slack-signature': signSlackRequest(options.secret ?? SLACK_SECRET, body, timestamp),
    },
    body,
  };
}

describe('the Slack approval card', () => {
  it('is a Block Kit message whose Approve button answers the ticket through its signed link', async () => {
    const { fx, hook } = await setup();
    const { runId } = await fx.run('approve:1');
    const card = await cardOf(hook, 0);
    // the shape Slack documents for an incoming webhook message with an actions block
    expect(card.text).toContain('approve_me');
    expect(card.blocks[0]).toEqual({
      type: 'header',
      text: { type: 'plain_text', text: 'Approve approve_me?' },
    });
    const actions = card.blocks.find((block: { type: string }) => block.type === 'actions');
    expect(actions.elements.map((button: { action_id: string }) => button.action_id)).toEqual([
      'awaken_approve',
      'awaken_deny',
      'awaken_open',
    ]);
    for (const button of actions.elements) {
      expect(button.type).toBe('button');
      expect(button.text.type).toBe('plain_text');
      if (button.value !== undefined) expect(button.value.length).toBeLessThanOrEqual(2000);
    }
    const [approve, deny, open] = actions.elements;
    expect(approve.style).toBe('primary');
    expect(deny.style).toBe('danger');
    expect(open.url.startsWith(`${PUBLIC_URL}/links/acme/${runId}/`)).toBe(true);
    expect(approve.value).toBe(open.url.slice(PUBLIC_URL.length));

    const clicked = await fx.http.app.request(
      '/slack/interactions',
      interaction(approve.value, 'awaken_approve'),
    );
    expect(clicked.status).toBe(200);
    expect(await clicked.json()).toEqual({ status: 'accepted' });
    await vi.waitFor(async () => expect((await fx.json(`/v1/runs/${runId}`)).body.status).toBe('done'), WAIT);
    expect(await fx.counters.get(`exec:${runId}:approve_me_0_0`)).toBe(1);
    const audit = await fx.json(`/v1/runs/${runId}/decisions`);
    expect(audit.body.decisions).toEqual([
      expect.objectContaining({
        decidedBy: 'dana',
        channel: 'link',
        answer: expect.objectContaining({ approved: true }),
      }),
    ]);
    // a second click is the same decision: counted once
    const again = await fx.http.app.request(
      '/slack/interactions',
      interaction(approve.value, 'awaken_approve'),
    );
    expect(await again.json()).toEqual({ status: 'duplicate' });
  });

  it('Deny refuses the call: the tool never runs', async () => {
    const { fx, hook } = await setup();
    const { runId } = await fx.run('approve:1');
    const card = await cardOf(hook, 0);
    const deny = card.blocks.find((block: { type: string }) => block.type === 'actions').elements[1];
    const clicked = await fx.http.app.request('/slack/interactions', interaction(deny.value, 'awaken_deny'));
    expect(await clicked.json()).toEqual({ status: 'accepted' });
    await vi.waitFor(async () => expect((await fx.json(`/v1/runs/${runId}`)).body.status).toBe('done'), WAIT);
    expect(await fx.counters.get(`exec:${runId}:approve_me_0_0`)).toBe(0);
  });

  it('the interaction endpoint refuses a bad Slack signature (401) or a forged link (403), applying nothing', async () => {
    const { fx, hook } = await setup();
    const { runId } = await fx.run('approve:1');
    const card = await cardOf(hook, 0);
    const approve = card.blocks.find((block: { type: string }) => block.type === 'actions').elements[0];

    const wrongSecret = await fx.http.app.request(
      '/slack/interactions',
      interaction(approve.value, 'awaken_approve', { secret: 'not-the-signing-secret' }),
    );
    expect(wrongSecret.status).toBe(401);
    const stale = await fx.http.app.request(
      '/slack/interactions',
      interaction(approve.value, 'awaken_approve', { timestamp: Math.floor(Date.now() / 1000) - 301 }),
    );
    expect(stale.status).toBe(401);
    const valid = interaction(approve.value, 'awaken_approve');
    const tampered = await fx.http.app.request('/slack/interactions', {
      ...valid,
      body: valid.body.replace('awaken_approve', 'awaken_deny'),
    });
    expect(tampered.status).toBe(401);
    const unsigned = await fx.http.app.request('/slack/interactions', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: valid.body,
    });
    expect(unsigned.status).toBe(401);
    // a well-signed Slack request whose link was altered (another approver) is not a valid link
    const forged = await fx.http.app.request(
      '/slack/interactions',
      interaction(approve.value.replace('for=dana', 'for=mallory'), 'awaken_approve'),
    );
    expect(forged.status).toBe(403);

    expect((await fx.json(`/v1/runs/${runId}`)).body.status).toBe('waiting');
    expect(await fx.counters.get(`exec:${runId}:approve_me_0_0`)).toBe(0);
  });
});
