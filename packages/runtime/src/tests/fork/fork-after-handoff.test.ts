import { randomUUID } from 'node:crypto';
import { FORK_REPEAT_ACTION, type InferenceRequest, defineTool } from '@awaken/contract';
import { createMemoryStores } from '@awaken/store-memory';
import { createScriptedModel } from '@awaken/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { handoffTool } from '../../handoff-tool';
import { createAgentRuntime } from '../../index';

const TRIAGE = 'You triage.';

/**
 * Triage hands off to billing at step 1; billing charges a card (a tool only billing has, which must
 * never run twice) at step 2 and answers at step 3. A fork at step 1 runs triage, which hands off
 * again: the charge the source made after the fork point must be asked about, not run silently.
 */
describe('forking a run before a handoff', () => {
  it('asks before repeating a non-idempotent call of the agent the source handed off to', async () => {
    let charges = 0;
    const charge = defineTool({
      name: 'charge_card',
      description: 'Charges the card.',
      parameters: z.object({ cents: z.number() }),
      idempotent: false,
      execute: ({ cents }) => {
        charges += 1;
        return { charged: cents };
      },
    });
    const model = createScriptedModel((request: InferenceRequest) => {
      if (request.system === TRIAGE)
        return { toolCalls: [{ id: `h${randomUUID()}`, name: 'transfer_to_billing' }] };
      const charged = request.messages.some((m) => m.role === 'tool' && m.toolName === 'charge_card');
      if (!charged)
        return { toolCalls: [{ id: `c${randomUUID()}`, name: 'charge_card', arguments: { cents: 500 } }] };
      return { text: 'charged' };
    });
    const stores = createMemoryStores();
    const runtime = createAgentRuntime({
      stores,
      agents: [
        { id: 'triage', systemPrompt: TRIAGE, model, tools: [handoffTool('billing')] },
        { id: 'billing', systemPrompt: 'You bill.', model, tools: [charge] },
      ],
    });
    const source = await runtime.runToCompletion({
      agentId: 'triage',
      input: 'bill me',
      threadId: randomUUID(),
    });
    expect(source).toMatchObject({ status: 'done', response: 'charged' });
    expect(charges).toBe(1);

    const plan = await runtime.planFork(source.runId, { atStep: 1 });
    expect(plan.agentId).toBe('triage');
    expect(plan.forkOf.repeats.map((repeat) => repeat.toolName)).toEqual(['charge_card']);

    const fork = await (await runtime.forkRun(source.runId, { atStep: 1 })).result;
    expect(charges).toBe(1);
    expect(fork.status).toBe('waiting');
    expect(fork.waiting?.tickets[0]).toMatchObject({ action: FORK_REPEAT_ACTION, toolName: 'charge_card' });
  });
});
