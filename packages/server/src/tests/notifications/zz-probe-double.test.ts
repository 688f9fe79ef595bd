import { afterEach, expect, it, vi } from 'vitest';
import { type NotifyFixture, PUBLIC_URL, SLACK_SECRET, createNotifyFixture } from '../../../test-support/notify-fixture';
import { type WebhookReceiver, startWebhookReceiver } from '../../../test-support/webhook-receiver';
import { signSlackRequest } from '../../notifications/slack/slack-signature';
const WAIT = { timeout: 10_000, interval: 20 };
let fx: NotifyFixture | undefined; let receiver: WebhookReceiver | undefined;
afterEach(async () => { await fx?.close(); await receiver?.close(); });
function interaction(value: string, actionId: string, user = 'dana.s') {
  const payload = { type: 'block_actions', user: { id: 'U1', username: user }, actions: [{ type: 'button', action_id: actionId, value }] };
  const body = new URLSearchParams({ payload: JSON.stringify(payload) }).toString();
  const timestamp = Math.floor(Date.now() / 1000);
  return { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-slack-request-timestamp': String(timestamp), 'x-slack-signature': signSlackRequest(SLACK_SECRET, body, timestamp) }, body };
}
async function setup() {
  receiver = await startWebhookReceiver([200]);
  fx = await createNotifyFixture([{ id: 'slack', url: receiver.url, secret: 'unused-by-slack-0123', approver: 'dana', format: 'slack', events: ['approval.requested'] }]);
  return { fx, hook: receiver };
}
async function card(hook: WebhookReceiver, i: number) {
  return vi.waitFor(() => { const c = hook.received[i]?.json; expect(c).toBeDefined(); return c; }, WAIT);
}
const link = (fx: NotifyFixture, value: string, answer: string, reason?: string) => fx.http.app.request(value, { method: 'POST', body: new URLSearchParams({ answer, ...(reason ? { reason } : {}) }) });

it.skip('concurrent slack + link clicks', async () => {
  const { fx, hook } = await setup();
  const { runId } = await fx.run('approve:1');
  const c = await card(hook, 0);
  const [approve] = c.blocks.find((b: any) => b.type === 'actions').elements;
  const results = await Promise.all([
    ...Array.from({ length: 4 }, () => fx.http.app.request('/slack/interactions', interaction(approve.value, 'awaken_approve'))),
    ...Array.from({ length: 4 }, () => link(fx, approve.value, 'approve')),
    link(fx, approve.value, 'approve', 'with a reason'),
    fx.http.app.request('/slack/interactions', interaction(approve.value, 'awaken_deny')),
    link(fx, approve.value, 'deny'),
  ]);
  for (const r of results) console.log(r.status, (await r.text()).replace(/\s+/g, ' ').slice(-200));
  await vi.waitFor(async () => expect((await fx.json(`/v1/runs/${runId}`)).body.status).toBe('done'), WAIT);
  console.log('exec', await fx.counters.get(`exec:${runId}:approve_me_0_0`));
  console.log('decisions', JSON.stringify((await fx.json(`/v1/runs/${runId}/decisions`)).body.decisions.map((d: any) => [d.decisionId, d.answer])));
  const after = [await fx.http.app.request('/slack/interactions', interaction(approve.value, 'awaken_approve')), await link(fx, approve.value, 'approve'), await link(fx, approve.value, 'deny'), await fx.http.app.request('/slack/interactions', interaction(approve.value, 'awaken_deny'))];
  for (const r of after) console.log('after', r.status, (await r.text()).replace(/\s+/g, ' ').slice(-200));
});

it('answered via API first', async () => {
  const { fx, hook } = await setup();
  const { runId } = await fx.run('approve:1');
  const c = await card(hook, 0);
  const [approve] = c.blocks.find((b: any) => b.type === 'actions').elements;
  const run = (await fx.json(`/v1/runs/${runId}`)).body;
  console.log('run', JSON.stringify(run).slice(0, 600));
  const ticketId = decodeURIComponent(new URL(PUBLIC_URL + approve.value).pathname.split('/').at(-1)!);
  const api = await fx.json(`/v1/runs/${runId}/decisions`, { body: { decisions: [{ ticketId, result: { approved: true } }] } });
  console.log('api', api.status, JSON.stringify(api.body).slice(0, 300));
  const results = await Promise.all([fx.http.app.request('/slack/interactions', interaction(approve.value, 'awaken_approve')), link(fx, approve.value, 'approve'), fx.http.app.request(approve.value)]);
  for (const r of results) console.log(r.status, (await r.text()).replace(/\s+/g, ' ').slice(-200));
  await vi.waitFor(async () => expect((await fx.json(`/v1/runs/${runId}`)).body.status).toBe('done'), WAIT);
  const results2 = await Promise.all([fx.http.app.request('/slack/interactions', interaction(approve.value, 'awaken_approve')), link(fx, approve.value, 'approve'), fx.http.app.request(approve.value)]);
  for (const r of results2) console.log('done', r.status, (await r.text()).replace(/\s+/g, ' ').slice(-200));
  console.log('exec', await fx.counters.get(`exec:${runId}:approve_me_0_0`));
});
