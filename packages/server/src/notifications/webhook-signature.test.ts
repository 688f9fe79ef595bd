import { describe, expect, it } from 'vitest';
import { signWebhook, verifyWebhook } from './webhook-signature';

const secret = 'hook-secret-0123456789';
const body = '{"id":"dlv_1","type":"approval.requested"}';
const now = 1_800_000_000;

describe('webhook signatures', () => {
  it('verify the body they were made for, within the replay window', () => {
    const header = signWebhook(secret, body, now);
    expect(header).toMatch(/^t=1800000000,v1=[0-9a-f]{64}$/);
    expect(verifyWebhook({ secret, body, header, now })).toBe(true);
    expect(verifyWebhook({ secret, body, header, now: now + 300 })).toBe(true);
  });

  it('refuse a tampered body, signature, timestamp or secret, and a replay after five minutes', () => {
    const header = signWebhook(secret, body, now);
    expect(verifyWebhook({ secret, body: body.replace('requested', 'decided'), header, now })).toBe(false);
    const flipped = header.replace(/.$/, (last) => (last === '0' ? '1' : '0'));
    expect(verifyWebhook({ secret, body, header: flipped, now })).toBe(false);
    expect(verifyWebhook({ secret, body, header: header.replace(`t=${now}`, `t=${now + 1}`), now })).toBe(
      false,
    );
    expect(verifyWebhook({ secret: `${secret}x`, body, header, now })).toBe(false);
    expect(verifyWebhook({ secret, body, header, now: now + 301 })).toBe(false);
    expect(verifyWebhook({ secret, body, header, now: now - 301 })).toBe(false);
    expect(verifyWebhook({ secret, body, header: '', now })).toBe(false);
    expect(verifyWebhook({ secret, body, header: undefined, now })).toBe(false);
    expect(verifyWebhook({ secret, body, header: `t=${now},v1=`, now })).toBe(false);
  });

  it('accept one matching v1 among several (a secret being rotated)', () => {
    const header = `${signWebhook('old-secret-0123456789', body, now)},v1=${signWebhook(secret, body, now).split('v1=')[1]}`;
    expect(verifyWebhook({ secret, body, header, now })).toBe(true);
  });
});
