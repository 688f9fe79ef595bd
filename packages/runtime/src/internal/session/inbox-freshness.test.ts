import { describe, expect, it } from 'vitest';
import { InboxFreshness } from './inbox-freshness';

const empty = async (): Promise<string[]> => [];

describe('InboxFreshness: when a gate may skip its inbox peek', () => {
  it('never before the subscription is active, even after an empty peek', async () => {
    const freshness = new InboxFreshness();
    await freshness.peek(empty);
    expect(freshness.unchanged).toBe(false);
    freshness.listening();
    expect(freshness.unchanged).toBe(true);
  });

  it('not after a peek that found entries', async () => {
    const freshness = new InboxFreshness();
    freshness.listening();
    await freshness.peek(async () => ['cancel']);
    expect(freshness.unchanged).toBe(false);
  });

  it('not after a wake-up, until the next peek finds the inbox empty again', async () => {
    const freshness = new InboxFreshness();
    freshness.listening();
    await freshness.peek(empty);
    freshness.noteWakeUp();
    expect(freshness.unchanged).toBe(false);
    await freshness.peek(empty);
    expect(freshness.unchanged).toBe(true);
  });

  it('not when a wake-up arrived while the empty peek was in flight (the put may have missed it)', async () => {
    const freshness = new InboxFreshness();
    freshness.listening();
    await freshness.peek(async () => {
      freshness.noteWakeUp();
      return [];
    });
    expect(freshness.unchanged).toBe(false);
  });

  it('by the latest peek only: an older empty answer arriving last does not hide a newer one', async () => {
    const freshness = new InboxFreshness();
    freshness.listening();
    let answerOld: (value: string[]) => void = () => {};
    const old = freshness.peek(() => new Promise<string[]>((resolve) => (answerOld = resolve)));
    await freshness.peek(async () => ['input']);
    answerOld([]);
    await old;
    expect(freshness.unchanged).toBe(false);
  });
});
