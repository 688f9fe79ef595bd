import { randomUUID } from 'node:crypto';
import {
  AwakenError,
  type AwakenStores,
  FORK_REPEAT_ACTION,
  type InferenceRequest,
  answer,
  defineTool,
  deny,
  questionKindOf,
} from '@awaken/contract';
import { createMemoryStores } from '@awaken/store-memory';
import { createRedisStores } from '@awaken/store-redis';
import { createScriptedModel } from '@awaken/testing';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { z } from 'zod';
import { type AgentDefinition, createAgentRuntime } from '../../index';

/**
 * A 4-step run with tools: step 1 looks a word up, step 2 sends an email (a tool that must never run
 * twice), step 3 looks another word up, step 4 answers. The model decides from the history alone (the
 * number of tool results it reads), so a fork's model turns are the source's from the fork step on.
 */
function fixture() {
  const executions = { lookup: 0, send_email: 0 };
  const lookup = defineTool({
    name: 'lookup',
    description: 'Looks a word up.',
    parameters: z.object({ word: z.string() }),
    execute: ({ word }) => {
      executions.lookup += 1;
      return { word, meaning: `meaning of ${word}` };
    },
  });
  const sendEmail = defineTool({
    name: 'send_email',
    description: 'Sends an email.',
    parameters: z.object({ to: z.string() }),
    idempotent: false,
    execute: ({ to }) => {
      executions.send_email += 1;
      return { sent: to, n: executions.send_email };
    },
  });
  const systemPrompts: Array<string | undefined> = [];
  const model = createScriptedModel((request: InferenceRequest) => {
    systemPrompts.push(request.system);
    const results = request.messages.filter((message) => message.role === 'tool').length;
    if (results === 0) return { toolCalls: [{ id: 'c1', name: 'lookup', arguments: { word: 'fork' } }] };
    if (results === 1)
      return { toolCalls: [{ id: 'c2', name: 'send_email', arguments: { to: 'ann@example.com' } }] };
    if (results === 2) return { toolCalls: [{ id: 'c3', name: 'lookup', arguments: { word: 'spoon' } }] };
    return { text: `done after ${results} results` };
  });
  const agents: AgentDefinition[] = [
    { id: 'assistant', systemPrompt: 'You help.', model, tools: [lookup, sendEmail] },
    { id: 'other', systemPrompt: 'You are the other agent.', model, tools: [lookup, sendEmail] },
  ];
  return { executions, model, systemPrompts, agents };
}

type Backend = { name: string; stores: () => AwakenStores };
const redisClients: Array<{ close(): Promise<void> }> = [];
const backends: Backend[] = [
  { name: 'memory', stores: () => createMemoryStores() },
  {
    name: 'redis',
    stores: () => {
      const stores = createRedisStores({ redis: inject('redisUrl'), prefix: `fork:${randomUUID()}:` });
      redisClients.push(stores);
      return stores;
    },
  },
];
afterAll(async () => {
  await Promise.all(redisClients.map((stores) => stores.close()));
});

async function sourceRun(stores: AwakenStores) {
  const f = fixture();
  const runtime = createAgentRuntime({ agents: f.agents, stores });
  const result = await runtime.runToCompletion({
    agentId: 'assistant',
    input: 'help me',
    threadId: randomUUID(),
  });
  expect(result).toMatchObject({ status: 'done', steps: 4 });
  expect(f.executions).toEqual({ lookup: 2, send_email: 1 });
  return { ...f, runtime, result };
}

describe.each(backends)('forking a run at a step ($name)', (backend) => {
  it('a fork at each step of a 4-step run re-executes nothing recorded before the fork, and leaves the source as it was', async () => {
    const stores = backend.stores();
    const source = await sourceRun(stores);
    const sourceMessages = await stores.threadRuns.readMessages(source.result.threadId);
    for (const atStep of [1, 2, 3, 4]) {
      const before = { ...source.executions, model: source.model.callCount };
      const handle = await source.runtime.forkRun(source.result.runId, { atStep });
      const result = await handle.result;
      const fork = await stores.threadRuns.getRun(result.runId);
      expect(fork?.forkOf).toMatchObject({ runId: source.result.runId, step: atStep });
      const thread = await stores.threadRuns.getThread(result.threadId);
      expect(thread?.branchOf).toEqual({ threadId: source.result.threadId, seq: fork?.forkOf?.atSeq });
      // the fork's history starts with the source's history as it was when step `atStep` began
      const forkMessages = await stores.threadRuns.readMessages(result.threadId);
      const prefix = sourceMessages.filter((record) => record.seq <= (fork?.forkOf?.atSeq ?? -1));
      expect(forkMessages.slice(0, prefix.length).map((record) => record.message)).toEqual(
        prefix.map((record) => record.message),
      );
      expect(prefix.filter((record) => record.message.role === 'assistant')).toHaveLength(atStep - 1);
      // the model is called for the fork step and what follows (up to the question), never before it
      expect(source.model.callCount - before.model).toBe(atStep <= 2 ? 3 - atStep : 5 - atStep);
      // lookups at steps 1 and 3 run live only from the fork step on (a fork before the email waits there)
      const reached = atStep <= 2 ? [1] : [1, 3];
      const lookupsAfter = reached.filter((step) => step >= atStep).length;
      expect(source.executions.lookup - before.lookup).toBe(lookupsAfter);
      if (atStep <= 2) {
        // the email the source sent after the fork point is not sent again: the fork asks first
        expect(result.status).toBe('waiting');
        expect(result.waiting?.tickets).toHaveLength(1);
        expect(source.executions.send_email - before.send_email).toBe(0);
        await source.runtime.cancelRun(result.runId);
      } else {
        expect(result).toMatchObject({ status: 'done', response: 'done after 3 results' });
        expect(source.executions.send_email - before.send_email).toBe(0);
      }
    }
    // the source thread and run are untouched
    expect(await stores.threadRuns.readMessages(source.result.threadId)).toEqual(sourceMessages);
    expect(await stores.threadRuns.getRun(source.result.runId)).toMatchObject({ status: 'done', steps: 4 });
  });

  it('a fork past a non-idempotent call asks before running it again: result reuses, retry runs, deny cancels', async () => {
    const stores = backend.stores();
    const source = await sourceRun(stores);
    const asked = async () => {
      const handle = await source.runtime.forkRun(source.result.runId, { atStep: 2 });
      const result = await handle.result;
      const ticket = result.waiting?.tickets[0];
      expect(ticket).toMatchObject({
        action: FORK_REPEAT_ACTION,
        toolName: 'send_email',
        resumeMode: 'replay_tool_call',
        parameters: {
          sourceRunId: source.result.runId,
          forkStep: 2,
          recorded: [
            {
              toolName: 'send_email',
              arguments: { to: 'ann@example.com' },
              outcome: 'succeeded',
              result: { sent: 'ann@example.com', n: 1 },
              step: 2,
            },
          ],
        },
      });
      expect(ticket?.expiresAt).toBeUndefined();
      expect(questionKindOf(ticket as never)).toBe('indeterminate');
      return { runId: result.runId, ticketId: ticket?.ticketId as string };
    };

    // result: the recorded value stands in for the call; the email is not sent again
    const reuse = await asked();
    const reused = await source.runtime.resumeRun(reuse.runId, {
      decisions: [
        answer(
          { ticketId: reuse.ticketId },
          { outcome: 'result', result: { sent: 'ann@example.com', n: 1 } },
        ),
      ],
    }).result;
    expect(reused).toMatchObject({ status: 'done', response: 'done after 3 results' });
    expect(source.executions.send_email).toBe(1);
    const reusedMessages = await stores.threadRuns.readMessages(reused.threadId);
    expect(reusedMessages.map((record) => record.message)).toContainEqual(
      expect.objectContaining({
        role: 'tool',
        toolName: 'send_email',
        outcome: 'succeeded',
        content: { sent: 'ann@example.com', n: 1 },
      }),
    );

    // retry: a human said to send it again; it runs once, and is not asked about again
    const again = await asked();
    const retried = await source.runtime.resumeRun(again.runId, {
      decisions: [answer({ ticketId: again.ticketId }, { outcome: 'retry' })],
    }).result;
    expect(retried).toMatchObject({ status: 'done' });
    expect(source.executions.send_email).toBe(2);

    // deny: the call is cancelled without running, the model reads why
    const denied = await asked();
    const cancelled = await source.runtime.resumeRun(denied.runId, {
      decisions: [deny({ ticketId: denied.ticketId }, 'already sent')],
    }).result;
    expect(cancelled.status).toBe('done');
    expect(source.executions.send_email).toBe(2);
    const toolMessages = (await stores.threadRuns.readMessages(cancelled.threadId)).filter(
      (record) => record.runId === denied.runId && record.message.role === 'tool',
    );
    expect(toolMessages.map((record) => record.message)).toContainEqual(
      expect.objectContaining({ toolName: 'send_email', outcome: 'cancelled' }),
    );
  });

  it('fail answers without running; a fork of a fork asks about what its source and its source’s source ran', async () => {
    const stores = backend.stores();
    const source = await sourceRun(stores);
    // a fork after the email (step 3) has nothing to repeat: it sends nothing and asks nothing
    const late = await (await source.runtime.forkRun(source.result.runId, { atStep: 3 })).result;
    expect(late.status).toBe('done');
    expect((await stores.threadRuns.getRun(late.runId))?.forkOf?.repeats).toEqual([]);

    // a fork at step 2 asks; "it happened, here is the value" keeps the email unsent
    const first = await (await source.runtime.forkRun(source.result.runId, { atStep: 2 })).result;
    const firstTicket = first.waiting?.tickets[0]?.ticketId as string;
    const firstDone = await source.runtime.resumeRun(first.runId, {
      decisions: [
        answer({ ticketId: firstTicket }, { outcome: 'result', result: { sent: 'ann@example.com', n: 1 } }),
      ],
    }).result;
    expect(firstDone.status).toBe('done');
    // forking that fork at its first step: its own email call and its source's are both listed
    const second = await (await source.runtime.forkRun(first.runId, { atStep: 1 })).result;
    expect(second.status).toBe('waiting');
    const recorded = (second.waiting?.tickets[0]?.parameters as { recorded: unknown[] } | undefined)
      ?.recorded;
    expect(recorded).toHaveLength(2);
    expect((await stores.threadRuns.getThread(second.threadId))?.branchOf?.threadId).toBe(first.threadId);
    const failed = await source.runtime.resumeRun(second.runId, {
      decisions: [
        answer(
          { ticketId: second.waiting?.tickets[0]?.ticketId as string },
          { outcome: 'fail', reason: 'do not resend' },
        ),
      ],
    }).result;
    expect(failed.status).toBe('done');
    expect(source.executions.send_email).toBe(1);
    const tool = (await stores.threadRuns.readMessages(failed.threadId)).find(
      (record) =>
        record.runId === second.runId &&
        record.message.role === 'tool' &&
        record.message.toolName === 'send_email',
    );
    expect(tool?.message).toMatchObject({ outcome: 'failed' });
    expect(JSON.stringify(tool?.message)).toContain('do not resend');
  });

  it('swaps the instructions or the agent for the fork only', async () => {
    const stores = backend.stores();
    const source = await sourceRun(stores);
    source.systemPrompts.length = 0;
    const fork = await (
      await source.runtime.forkRun(source.result.runId, { atStep: 3, instructions: 'Answer in French.' })
    ).result;
    expect(fork.status).toBe('done');
    expect(source.systemPrompts).toEqual(['Answer in French.', 'Answer in French.']);
    expect((await stores.threadRuns.getRun(fork.runId))?.forkOf?.instructions).toBe('Answer in French.');
    source.systemPrompts.length = 0;
    const other = await (await source.runtime.forkRun(source.result.runId, { atStep: 4, agentId: 'other' }))
      .result;
    expect(await stores.threadRuns.getRun(other.runId)).toMatchObject({ agentId: 'other' });
    expect(source.systemPrompts).toEqual(['You are the other agent.']);
  });

  it('refuses bad forks before writing anything, naming the field', async () => {
    const stores = backend.stores();
    const source = await sourceRun(stores);
    const refusal = async (options: unknown, runId = source.result.runId) => {
      try {
        await source.runtime.forkRun(runId, options as never);
      } catch (error) {
        return error as AwakenError;
      }
      throw new Error('the fork was not refused');
    };
    for (const atStep of [0, 5, -1, 1.5, Number.NaN, '2', null, undefined]) {
      const error = await refusal({ atStep });
      expect(error).toBeInstanceOf(AwakenError);
      expect(error.code).toBe('validation_failed');
      expect(error.details).toEqual({ field: 'atStep' });
    }
    expect((await refusal({ atStep: 5 })).message).toContain('has 4 steps');
    expect((await refusal({ atStep: 1, agentId: 'nobody' })).details).toEqual({ field: 'agentId' });
    expect((await refusal({ atStep: 1, instructions: 42 })).details).toEqual({ field: 'instructions' });
    expect((await refusal({ atStep: 1 }, 'no-such-run')).code).toBe('not_found');
    // a taken run id: conflict, and no branch is made for it
    const error = await refusal({ atStep: 1, runId: source.result.runId });
    expect(error.code).toBe('conflict');
    const branching = stores.threadRuns as unknown as {
      listBranches(id: string): Promise<{ items: unknown[] }>;
    };
    expect((await branching.listBranches(source.result.threadId)).items).toHaveLength(0);
  });
});
