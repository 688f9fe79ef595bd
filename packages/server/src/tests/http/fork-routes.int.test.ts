import { type InferenceRequest, defineTool } from '@awaken/contract';
import type { AgentDefinition } from '@awaken/runtime';
import { createScriptedModel } from '@awaken/testing';
import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, inject, it, vi } from 'vitest';
import { z } from 'zod';
import { branchBackends } from '../../../test-support/branch-fixture';
import { createMailboxService } from '../../create-mailbox-service';
import { type HttpApp, createHttpApp } from '../../http/create-http-app';
import type { MailboxService, ServiceStores } from '../../types';

/**
 * A 4-step agent: step 1 looks a word up, step 2 sends an email (`idempotent: false`), step 3 looks
 * another word up, step 4 answers. The model decides from the number of tool results it reads.
 */
function forkAgent() {
  const executions = { lookup: 0, send_email: 0 };
  const model = createScriptedModel((request: InferenceRequest) => {
    const results = request.messages.filter((message) => message.role === 'tool').length;
    if (results === 0) return { toolCalls: [{ id: 'c1', name: 'lookup', arguments: { word: 'fork' } }] };
    if (results === 1)
      return { toolCalls: [{ id: 'c2', name: 'send_email', arguments: { to: 'ann@example.com' } }] };
    if (results === 2) return { toolCalls: [{ id: 'c3', name: 'lookup', arguments: { word: 'spoon' } }] };
    return { text: `done (${request.system})` };
  });
  const tools = [
    defineTool({
      name: 'lookup',
      description: 'Looks a word up.',
      parameters: z.object({ word: z.string() }),
      execute: ({ word }) => {
        executions.lookup += 1;
        return { word };
      },
    }),
    defineTool({
      name: 'send_email',
      description: 'Sends an email.',
      parameters: z.object({ to: z.string() }),
      idempotent: false,
      execute: ({ to }) => {
        executions.send_email += 1;
        return { sent: to };
      },
    }),
  ];
  const agents: AgentDefinition[] = [{ id: 'mailer', systemPrompt: 'You send mail.', model, tools }];
  return { agents, model, executions };
}

type Json = { status: number; body: any };

describe.each(branchBackends({ redisUrl: inject('redisUrl'), postgresUrl: inject('postgresUrl') }))(
  'POST /v1/runs/:id/fork on $name',
  (backend) => {
    let stores: ServiceStores & { close?(): Promise<void> };
    let service: MailboxService;
    let http: HttpApp;
    let fx: ReturnType<typeof forkAgent>;

    beforeEach(async () => {
      stores = backend.create();
      fx = forkAgent();
      service = createMailboxService({
        agents: fx.agents,
        stores,
        concurrency: 1,
        leaseMs: 2_000,
        idleWaitMs: 50,
      });
      await service.start();
      http = createHttpApp({ tenants: { default: service }, logger: pino({ level: 'silent' }) });
    });
    afterEach(async () => {
      await service.stop({ graceMs: 1_000 });
      await stores.close?.();
    });

    async function call(path: string, body?: unknown, raw?: string): Promise<Json> {
      const text = raw ?? (body === undefined ? undefined : JSON.stringify(body));
      const response = await http.app.request(path, {
        method: text === undefined ? 'GET' : 'POST',
        ...(text === undefined ? {} : { body: text, headers: { 'content-type': 'application/json' } }),
      });
      const answer = await response.text();
      return { status: response.status, body: answer ? JSON.parse(answer) : undefined };
    }

    async function settled(runId: string): Promise<any> {
      return vi.waitFor(
        async () => {
          const run = (await call(`/v1/runs/${runId}`)).body;
          expect(['waiting', 'done']).toContain(run.status);
          return run;
        },
        { timeout: 10_000, interval: 20 },
      );
    }

    async function source(): Promise<any> {
      const started = await call('/v1/runs', { agentId: 'mailer', input: 'go', stream: false });
      expect(started.status).toBe(202);
      const run = await settled(started.body.runId);
      expect(run).toMatchObject({ status: 'done', steps: 4 });
      return run;
    }

    it('forks at each step: nothing before the step runs again, the email is asked about, the source is untouched', async () => {
      const run = await source();
      const sourceMessages = (await call(`/v1/threads/${run.threadId}/messages`)).body.items;
      for (const atStep of [1, 2, 3, 4]) {
        const before = { ...fx.executions, model: fx.model.callCount };
        const forked = await call(`/v1/runs/${run.runId}/fork`, { atStep, stream: false });
        expect(forked.status).toBe(202);
        expect(forked.body.forkOf).toMatchObject({ runId: run.runId, threadId: run.threadId, step: atStep });
        const fork = await settled(forked.body.runId);
        expect(fork.forkOf).toMatchObject({ runId: run.runId, step: atStep });
        expect(fork.threadId).toBe(forked.body.threadId);
        const thread = (await call(`/v1/threads/${fork.threadId}`)).body;
        expect(thread.branchOf).toEqual({ threadId: run.threadId, seq: forked.body.forkOf.atSeq });
        const modelCalls = fx.model.callCount - before.model;
        expect(modelCalls).toBe(atStep <= 2 ? 3 - atStep : 5 - atStep);
        expect(fx.executions.send_email).toBe(before.send_email);
        expect(fx.executions.lookup - before.lookup).toBe(atStep === 1 || atStep === 3 ? 1 : 0);
        if (atStep <= 2) {
          expect(fork.status).toBe('waiting');
          expect(fork.waiting.tickets[0]).toMatchObject({ action: 'fork_repeat', toolName: 'send_email' });
        } else {
          expect(fork).toMatchObject({ status: 'done', response: 'done (You send mail.)' });
        }
      }
      expect((await call(`/v1/threads/${run.threadId}/messages`)).body.items).toEqual(sourceMessages);
      const branches = (await call(`/v1/threads/${run.threadId}/branches`)).body.items;
      expect(branches).toHaveLength(4);
    });

    it('the fork_repeat question is answered through the decision route; instructions swap the prompt', async () => {
      const run = await source();
      const forked = await call(`/v1/runs/${run.runId}/fork`, {
        atStep: 2,
        instructions: 'You are careful.',
        stream: false,
      });
      const waiting = await settled(forked.body.runId);
      const ticket = waiting.waiting.tickets[0];
      expect(ticket.parameters.recorded).toEqual([
        expect.objectContaining({
          toolName: 'send_email',
          arguments: { to: 'ann@example.com' },
          result: { sent: 'ann@example.com' },
        }),
      ]);
      // a yes/no approval is not an answer to this question: refused, nothing runs
      const wrong = await call(`/v1/runs/${waiting.runId}/decision`, {
        ticketId: ticket.ticketId,
        result: { approved: true },
      });
      expect(wrong.status).toBe(422);
      expect(wrong.body.error.message).toContain('outcome');
      const decided = await call(`/v1/runs/${waiting.runId}/decision`, {
        ticketId: ticket.ticketId,
        result: { outcome: 'result', result: ticket.parameters.recorded[0].result },
      });
      expect(decided.status).toBe(200);
      expect(decided.body.receipts[0].status).toBe('accepted');
      const done = await vi.waitFor(
        async () => {
          const view = (await call(`/v1/runs/${waiting.runId}`)).body;
          expect(view.status).toBe('done');
          return view;
        },
        { timeout: 10_000, interval: 20 },
      );
      expect(done.response).toBe('done (You are careful.)');
      expect(fx.executions.send_email).toBe(1);
    });

    it('streams the fork by default', async () => {
      const run = await source();
      const response = await http.app.request(`/v1/runs/${run.runId}/fork`, {
        method: 'POST',
        body: JSON.stringify({ atStep: 4 }),
        headers: { 'content-type': 'application/json' },
      });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toContain('text/event-stream');
      const runId = response.headers.get('x-run-id');
      const text = await response.text();
      expect(text).toContain('"type":"run_finish"');
      expect((await call(`/v1/runs/${runId}`)).body.forkOf).toMatchObject({ runId: run.runId, step: 4 });
    });

    it('refuses bad forks with a clear status, writing nothing', async () => {
      const run = await source();
      const cases: Array<[unknown, number, string]> = [
        [{ atStep: 0 }, 422, 'atStep'],
        [{ atStep: 5 }, 422, 'atStep'],
        [{ atStep: 'two' }, 422, 'atStep'],
        [{ atStep: 1.5 }, 422, 'atStep'],
        [{}, 422, 'atStep'],
        [{ atStep: 1, agentId: 'nobody' }, 422, 'agentId'],
        [{ atStep: 1, instructions: 7 }, 422, 'instructions'],
        [{ atStep: 1, runId: `sub_${'a'.repeat(32)}` }, 422, 'runId'],
        [{ atStep: 1, extra: true }, 422, 'extra'],
      ];
      for (const [body, status, field] of cases) {
        const refused = await call(`/v1/runs/${run.runId}/fork`, body);
        expect([refused.status, JSON.stringify(refused.body)]).toEqual([
          status,
          expect.stringContaining(field),
        ]);
      }
      expect((await call(`/v1/runs/${run.runId}/fork`, undefined, '{"atStep":')).status).toBe(400);
      expect((await call('/v1/runs/nobody/fork', { atStep: 1 })).status).toBe(404);
      const taken = await call(`/v1/runs/${run.runId}/fork`, { atStep: 1, runId: run.runId });
      expect(taken.status).toBe(409);
      expect((await call(`/v1/threads/${run.threadId}/branches`)).body.items).toEqual([]);
    });
  },
);
