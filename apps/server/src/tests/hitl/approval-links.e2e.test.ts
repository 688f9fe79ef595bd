import { launchChromium } from '@awaken/vitest-setup/chromium';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type AppProcess, api, readSse, startAppProcess } from '../../../test-support/app-process';

const ALICE = 'alice-token-0123456789';
const BOB = 'bob-token-0123456789ab';
const SECRET = 'a-link-secret-of-at-least-32-characters';

let app: AppProcess;
let browser: Awaited<ReturnType<typeof launchChromium>>;
beforeAll(async () => {
  [app, browser] = await Promise.all([
    startAppProcess({
      AWAKEN_DEMO_DELAY_MS: '2',
      AWAKEN_SHUTDOWN_GRACE_MS: '200',
      AWAKEN_TOKENS: `${ALICE}:acme:alice,${BOB}:acme:bob`,
      AWAKEN_LINK_SECRET: SECRET,
    }),
    launchChromium(),
  ]);
});
afterAll(async () => {
  await Promise.all([app?.stop(), browser?.close()]);
});

const WAIT = { timeout: 15_000, interval: 25 };

async function waitingRun(input: string) {
  const response = await fetch(`${app.url}/v1/runs`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${ALICE}` },
    body: JSON.stringify({ agentId: 'demo', input }),
  });
  const { events } = await readSse(response);
  const ticketId: string = events.find((event) => event.type === 'tool_call_suspended')?.ticket.suspension.id;
  return { runId: response.headers.get('x-run-id') ?? '', ticketId };
}

async function issue(runId: string, ticketId: string, body: Record<string, unknown> = {}, token = ALICE) {
  return api(app.url, `/v1/runs/${runId}/tickets/${encodeURIComponent(ticketId)}/links`, { token, body });
}

const runOf = async (runId: string) => (await api(app.url, `/v1/runs/${runId}`, { token: ALICE })).body;
const decisionsOf = async (runId: string) =>
  (await api(app.url, `/v1/runs/${runId}/decisions`, { token: ALICE })).body.decisions;

describe('approval links in a real browser', () => {
  it('open the link, see the tool and its arguments, click Approve: the run finishes, recorded as the link identity', async () => {
    const { runId, ticketId } = await waitingRun('delete /tmp/linked.txt');
    const issued = await issue(runId, ticketId, { approver: 'dana@example.com' });
    expect(issued.status).toBe(201);
    expect(issued.body.url).toMatch(new RegExp(`^${app.url}/links/`));
    expect(issued.body.url).not.toContain(ALICE);

    const page = await browser.newPage();
    const opened = await page.goto(issued.body.url);
    expect(opened?.status()).toBe(200);
    expect(await page.locator('h1').textContent()).toContain('delete_file');
    expect(JSON.parse((await page.locator('#arguments').textContent()) ?? '')).toEqual({
      path: '/tmp/linked.txt',
    });
    expect(await page.locator('#message').textContent()).toContain('/tmp/linked.txt');
    await page.fill('#reason', 'looks right');
    await page.click('button[value="approve"]');
    await page.waitForSelector('#notice');
    expect(await page.locator('#title').textContent()).toBe('Answer recorded');

    const done = await vi.waitFor(async () => {
      const run = await runOf(runId);
      expect(run.status).toBe('done');
      return run;
    }, WAIT);
    expect(done.response).toBe('Done: I deleted /tmp/linked.txt.');
    expect(await decisionsOf(runId)).toMatchObject([
      {
        decidedBy: 'dana@example.com',
        channel: 'link',
        answer: { action: 'resume', approved: true, reason: 'looks right' },
      },
    ]);

    // the link again: the ticket no longer waits; the same answer is a duplicate, never applied twice
    const reopened = await page.goto(issued.body.url);
    expect(reopened?.status()).toBe(409);
    expect(await page.locator('#title').textContent()).toBe('Already answered');
    const resent = await fetch(issued.body.url, {
      method: 'POST',
      body: new URLSearchParams({ answer: 'approve', reason: 'looks right' }),
    });
    expect(resent.status).toBe(200);
    expect(await resent.text()).toContain('Already recorded');
    const other = await fetch(issued.body.url, {
      method: 'POST',
      body: new URLSearchParams({ answer: 'deny' }),
    });
    expect(other.status).toBe(409);
    expect(await decisionsOf(runId)).toHaveLength(1);
    await page.close();
  });

  it('Deny with a reason: the call never runs and the model reads the reason', async () => {
    const { runId, ticketId } = await waitingRun('delete /tmp/denied-by-link.txt');
    const issued = await issue(runId, ticketId);
    const page = await browser.newPage();
    await page.goto(issued.body.url);
    await page.fill('#reason', 'not this one');
    await page.click('button[value="deny"]');
    await page.waitForSelector('#notice');
    const done = await vi.waitFor(async () => {
      const run = await runOf(runId);
      expect(run.status).toBe('done');
      return run;
    }, WAIT);
    expect(done.response).toContain('not this one');
    // no approver named: the link's identity is the subject that issued it
    expect(await decisionsOf(runId)).toMatchObject([
      { decidedBy: 'alice', channel: 'link', answer: { approved: false, reason: 'not this one' } },
    ]);
    await page.close();
  });

  it('a changed run id, ticket id, approver or signature is refused (403/404) and nothing is applied', async () => {
    const { runId, ticketId } = await waitingRun('delete /tmp/tamper.txt');
    const other = await waitingRun('delete /tmp/other.txt');
    const { url } = (await issue(runId, ticketId, { approver: 'dana' })).body;
    const link = new URL(url);
    const tampered = [
      url.replace(encodeURIComponent(runId), encodeURIComponent(other.runId)),
      url.replace(encodeURIComponent(ticketId), encodeURIComponent(other.ticketId.replace('1', '2'))),
      url.replace('for=dana', 'for=mallory'),
      url.replace(
        /sig=[^&]+/,
        `sig=${link.searchParams.get('sig')?.replace(/^./, (c) => (c === 'A' ? 'B' : 'A'))}`,
      ),
      url.replace(/exp=\d+/, `exp=${Number(link.searchParams.get('exp')) + 1000}`),
      url.replace('/links/acme/', '/links/other/'),
    ];
    for (const target of tampered) {
      expect(target).not.toBe(url);
      const page = await fetch(target);
      expect([403, 404]).toContain(page.status);
      const posted = await fetch(target, {
        method: 'POST',
        body: new URLSearchParams({ answer: 'approve' }),
      });
      expect([403, 404]).toContain(posted.status);
      expect(await posted.text()).not.toContain('delete_file');
    }
    expect((await runOf(runId)).status).toBe('waiting');
    expect((await runOf(other.runId)).status).toBe('waiting');
    expect(await decisionsOf(runId)).toEqual([]);
    expect(await decisionsOf(other.runId)).toEqual([]);
  });

  it('an expired link is refused (410) and applies nothing; its expiry cannot be moved', async () => {
    const { runId, ticketId } = await waitingRun('delete /tmp/expiring.txt');
    const { url, expiresAt } = (await issue(runId, ticketId, { ttlSeconds: 1 })).body;
    expect(expiresAt).toBeLessThanOrEqual(Date.now() + 1000);
    // real time: poll until the link has expired
    await vi.waitFor(async () => expect((await fetch(url)).status).toBe(410), WAIT);
    const page = await browser.newPage();
    expect((await page.goto(url))?.status()).toBe(410);
    expect(await page.locator('#title').textContent()).toBe('Link expired');
    // a form posted after the expiry applies nothing
    const posted = await fetch(url, { method: 'POST', body: new URLSearchParams({ answer: 'approve' }) });
    expect(posted.status).toBe(410);
    await page.close();
    const later = url.replace(/exp=\d+/, `exp=${Date.now() + 3_600_000}`);
    expect((await fetch(later)).status).toBe(403);
    expect((await runOf(runId)).status).toBe('waiting');
    expect(await decisionsOf(runId)).toEqual([]);
  });

  it('issuing needs the decide scope, a waiting ticket, and refuses a link the four-eyes rule would refuse', async () => {
    const { runId, ticketId } = await waitingRun('delete /srv/linked.csv');
    expect((await issue(runId, 'no-such-ticket')).status).toBe(404);
    expect((await issue('no-such-run', ticketId)).status).toBe(404);
    const self = await issue(runId, ticketId);
    expect(self.status).toBe(403);
    expect(self.body.error.code).toBe('self_approval_forbidden');
    const named = await issue(runId, ticketId, { approver: 'alice' });
    expect(named.status).toBe(403);
    const bobs = await issue(runId, ticketId, {}, BOB);
    expect(bobs.status).toBe(201);
    const approved = await fetch(bobs.body.url, {
      method: 'POST',
      body: new URLSearchParams({ answer: 'approve' }),
    });
    expect(approved.status).toBe(200);
    await vi.waitFor(async () => expect((await runOf(runId)).status).toBe('done'), WAIT);
    expect((await issue(runId, ticketId)).status).toBe(409);
    // a client tool's ticket asks for an output, not approve / deny: no link for it
    const color = await waitingRun('pick a color');
    const refused = await issue(color.runId, color.ticketId);
    expect(refused.status).toBe(409);
    expect(refused.body.error.message).toContain('not an approval');
  });
});
