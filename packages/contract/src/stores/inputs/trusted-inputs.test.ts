import { describe, expect, it, vi } from 'vitest';
import { AwakenError } from '../../errors/awaken-error';
import { runControlInboxInputs } from './run-control-inbox-inputs';
import { runEventLogInputs } from './run-event-log-inputs';
import { threadRunStoreInputs } from './thread-run-inputs';
import { offerTrustedView, trustedStoreInputs, trustedViewOf } from './trusted-inputs';

const notAnEvent = { runId: 'r', events: [{ seq: 'not a number', big: 1n }] };

describe('trustedStoreInputs', () => {
  it('returns the runtime-built input as is, without the schema, and hands value-carrying inputs to keep', () => {
    const keep = vi.fn((value: unknown) => ({ kept: value }));
    const trusted = trustedStoreInputs(runEventLogInputs, keep);
    const safeParse = vi.spyOn(runEventLogInputs.append.schema, 'safeParse');

    expect(trusted.append.parse(notAnEvent)).toEqual({ kept: notAnEvent });
    expect(keep).toHaveBeenCalledTimes(1);
    const ids = { runId: 'r' };
    expect(trusted.isFinished.parse(ids)).toBe(ids);
    expect(keep).toHaveBeenCalledTimes(1);
    expect(safeParse).not.toHaveBeenCalled();
    safeParse.mockRestore();
  });

  it('leaves the ordinary inputs untouched: they still reject a mistake with validation_failed', () => {
    trustedStoreInputs(runEventLogInputs);
    expect(() => runEventLogInputs.append.parse(notAnEvent)).toThrow(AwakenError);
    expect(() => runEventLogInputs.append.parse(notAnEvent)).toThrow(/invalid append input/);
  });

  it('keeps the full parse for operations carrying a caller value, on the trusted path too', () => {
    const threads = trustedStoreInputs(threadRunStoreInputs);
    const inbox = trustedStoreInputs(runControlInboxInputs);
    for (const input of [threads.createThread, threads.updateThreadMetadata, threads.createRun, inbox.put]) {
      expect(() => input.parse({ metadata: { n: 1n }, control: null })).toThrow(/validation_failed|invalid/);
    }
    expect(threads.createThread).toBe(threadRunStoreInputs.createThread);
    expect(inbox.put).toBe(runControlInboxInputs.put);
  });

  it('marks the value-carrying inputs', () => {
    expect(threadRunStoreInputs.commitCheckpoint.carriesValues).toBe(true);
    expect(runEventLogInputs.append.carriesValues).toBe(true);
    expect(threadRunStoreInputs.getRun.carriesValues).toBe(false);
    expect(runEventLogInputs.tail.carriesValues).toBe(false);
  });
});

describe('offerTrustedView / trustedViewOf', () => {
  it('finds the view by the store object itself', () => {
    const store = { name: 'public' };
    const view = { name: 'trusted' };
    expect(offerTrustedView(store, view)).toBe(store);
    expect(trustedViewOf(store)).toBe(view);
  });

  it('gives a wrapper around the store (Proxy, spread copy) no view: the wrapper sees every call', () => {
    const store = { name: 'public' };
    offerTrustedView(store, { name: 'trusted' });
    const proxy = new Proxy(store, {});
    expect(trustedViewOf(proxy)).toBe(proxy);
    const copy = { ...store };
    expect(trustedViewOf(copy)).toBe(copy);
  });

  it('is the store itself when it offers no view', () => {
    const store = {};
    expect(trustedViewOf(store)).toBe(store);
  });
});
