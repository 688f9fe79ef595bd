import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { type AppProcess, api, startAppProcess } from '../../../test-support/app-process';
import { type ConsoleSession, startConsoleSession } from '../../../test-support/console-browser';

// `send invoice N` runs a tool that must never run twice; the process is killed (SIGKILL) while it
// runs, another process on the same Redis takes the runs over, and each waits on an `indeterminate`
// ticket: answered from the console — retry in the chat, "it happened" in the inbox, fail on the run page
const SEEN = { timeout: 20_000 };
const THREADS = { retry: 'invoice-retry', result: 'invoice-result', fail: 'invoice-fail' } as const;
const runs: Record<keyof typeof THREADS, string> = { retry: '', result: '', fail: '' };

let session: ConsoleSession;
let doomed: AppProcess | undefined;

/** Reads the run's events until `send_invoice` is running. */
async function untilInvoiceRuns(url: string, runId: string): Promise<void> {
  const response = await fetch(`${url}/v1/runs/${runId}/events`);
  const reader = response.body?.getReader();
  if (!reader) throw new Error(`no event stream (${response.status})`);
  const decoder = new TextDecoder();
  let buffer = '';
  for (;;) {
    const chunk = await reader.read();
    if (chunk.done) throw new Error('the run ended before send_invoice ran');
    buffer += decoder.decode(chunk.value, { stream: true });
    if (
      /"type":"tool_call_ready"[^\n]*"toolName":"send_invoice"|"toolName":"send_invoice"[^\n]*"type":"tool_call_ready"/.test(
        buffer,
      )
    ) {
      await reader.cancel();
      return;
    }
  }
}

beforeAll(async () => {
  const env = {
    REDIS_URL: inject('redisUrl'),
    AWAKEN_REDIS_PREFIX: `console-indeterminate-${randomUUID().slice(0, 8)}`,
    AWAKEN_LEASE_MS: '1500',
  };
  doomed = await startAppProcess({ ...env, AWAKEN_DEMO_DELAY_MS: '5' });
  const url = doomed.url;
  let n = 41;
  for (const [outcome, threadId] of Object.entries(THREADS)) {
    const started = await api(url, '/v1/runs', {
      body: { agentId: 'demo', input: `send invoice ${n}`, threadId, stream: false },
    });
    runs[outcome as keyof typeof THREADS] = started.body.runId;
    n += 1;
  }
  await Promise.all(Object.values(runs).map((runId) => untilInvoiceRuns(url, runId)));
  await doomed.kill();
  // the survivor takes the runs over once their leases run out
  session = await startConsoleSession(env);
  for (const runId of Object.values(runs)) {
    await vi.waitFor(
      async () => {
        const run = (await api(session.app.url, `/v1/runs/${runId}`)).body;
        if (run.waiting?.tickets?.[0]?.action !== 'indeterminate') {
          throw new Error(`run ${runId} never waited on an indeterminate ticket`);
        }
      },
      { timeout: 20_000, interval: 100 },
    );
  }
}, 90_000);
afterAll(async () => {
  await doomed?.kill();
  await session?.close();
});

async function finished(runId: string): Promise<any> {
  await expect
    .poll(async () => (await api(session.app.url, `/v1/runs/${runId}`)).body.status, SEEN)
    .toBe('done');
  return (await api(session.app.url, `/v1/runs/${runId}`)).body;
}

describe('the indeterminate question, answered from the console', () => {
  it('retry, from the chat: the invoice is sent by the run', async () => {
    const page = await session.open(`#/chat/${THREADS.retry}`);
    const form = page.getByTestId('approval');
    await form.getByText('did it happen?', { exact: true }).waitFor(SEEN);
    await expect(form.textContent()).resolves.toContain('"invoice": "41"');
    await session.screenshot(page, 'chat-indeterminate', { readme: 'console-indeterminate' });
    await session.screenshot(
      await session.open(`#/chat/${THREADS.retry}`, { width: 390, height: 844 }),
      'chat-indeterminate-phone',
    );
    await form.getByRole('button', { name: 'Retry' }).click();
    await page.getByTestId('message-assistant').last().getByText('Done: invoice 41 is sent.').waitFor(SEEN);
    expect((await finished(runs.retry)).response).toBe('Done: invoice 41 is sent.');
  });

  it('"it happened" with the result, from the inbox: the tool does not run again', async () => {
    const page = await session.open('#/inbox');
    const card = page.locator(`[data-testid="inbox-item"][data-run-id="${runs.result}"]`);
    await card.getByRole('button', { name: 'It happened…' }).click(SEEN);
    await card.getByLabel('Result (JSON)').fill('{"sent":"42","by":"hand"}');
    await session.screenshot(page, 'inbox-indeterminate');
    await card.getByRole('button', { name: 'Record the result' }).click();
    await card.waitFor({ state: 'detached', ...SEEN });
    expect((await finished(runs.result)).response).toBe('Done: invoice 42 is sent.');
    const messages = await api(session.app.url, `/v1/threads/${THREADS.result}/messages`);
    const tool = messages.body.items.find((item: any) => item.message.role === 'tool').message;
    expect(tool).toMatchObject({ outcome: 'succeeded', content: { sent: '42', by: 'hand' } });
  });

  it('fail with a message, from the run page: the model reads the message', async () => {
    const page = await session.open(`#/run/${runs.fail}`);
    // the killed process's activation never finished: drawn interrupted (failed), not running for ever
    const activations = page.locator('.lane[data-kind="activation"]');
    await activations.first().getByText('interrupted (its process stopped)').waitFor(SEEN);
    await expect(activations.first().locator('.bar').getAttribute('data-state')).resolves.toBe('failed');
    const waiting = page.getByTestId('run-waiting');
    await waiting.getByRole('button', { name: 'Fail…' }).click(SEEN);
    await waiting.getByLabel('Failure message').fill('the bank refused it');
    await session.screenshot(page, 'run-indeterminate');
    await waiting.getByRole('button', { name: 'Fail the call' }).click();
    await page.getByTestId('final-answer').getByText('the bank refused it').waitFor(SEEN);
    expect((await finished(runs.fail)).response).toContain('the bank refused it');
    await page.getByTestId('decision').getByText('fail', { exact: true }).waitFor(SEEN);
    expect(session.problems).toEqual([]);
  });
});
