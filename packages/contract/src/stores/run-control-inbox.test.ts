import { describe, expect, it } from 'vitest';
import { decisionControl, decisionTarget, runControlSchema } from './run-control-inbox';

const decision = {
  toolCallId: 'c1',
  decisionId: 'd1',
  action: 'resume' as const,
  result: { ok: 1 },
  updatedAt: 1,
};

describe('runControlSchema', () => {
  it('accepts a decision, a cancel and user input, each with its id', () => {
    expect(runControlSchema.parse(decisionControl(decision))).toEqual({
      kind: 'decision',
      id: 'd1',
      decision,
    });
    expect(runControlSchema.parse({ kind: 'cancel', id: 'x1', reason: 'stop', at: 5 }).kind).toBe('cancel');
    const input = { kind: 'input', id: 'i1', messages: [{ role: 'user', content: 'and also…' }], at: 5 };
    expect(runControlSchema.parse(input)).toEqual(input);
  });

  it('accepts a decision naming its call, its ticket or both, and keys it by the ticket when it names one', () => {
    const byTicket = { decisionId: 'd2', ticketId: 't1', action: 'resume' as const, updatedAt: 1 };
    expect(runControlSchema.parse(decisionControl(byTicket))).toEqual({
      kind: 'decision',
      id: 'd2',
      decision: byTicket,
    });
    expect(decisionTarget(byTicket)).toBe('ticket:t1');
    expect(decisionTarget({ ...byTicket, toolCallId: 'c1' })).toBe('ticket:t1');
    expect(decisionTarget({ ...decision, toolCallId: 'c1' })).toBe('call:c1');
    const { toolCallId: _named, ...nameless } = decision;
    const issues = runControlSchema.safeParse(decisionControl(nameless)).error?.issues ?? [];
    expect(issues.map((issue) => issue.path.join('.'))).toEqual(['decision.toolCallId']);
  });

  it('rejects a decision entry whose id is not its decisionId, empty input and a payload JSON cannot hold', () => {
    const issues = (value: unknown) =>
      runControlSchema.safeParse(value).error?.issues.map((issue) => issue.path.join('.'));
    expect(issues({ kind: 'decision', id: 'other', decision })).toEqual(['id']);
    expect(issues({ kind: 'input', id: 'i1', messages: [], at: 1 })).toEqual(['messages']);
    expect(issues(decisionControl({ ...decision, result: { n: 1n } }))).toEqual(['decision.result']);
    expect(issues({ kind: 'cancel', id: '', at: 1 })).toEqual(['id']);
  });
});
