import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { signWebhook } from '../../notifications/webhook-signature';

const GUIDE = readFileSync(new URL('../../../../../docs/guides/notifications.md', import.meta.url), 'utf8');

describe("the notifications guide's receiver check, as written", () => {
  it('accepts what the server signs and refuses a tampered body, another secret and an old timestamp', async () => {
    const code = /```js\n([\s\S]*?)\n```/.exec(GUIDE)?.[1] ?? '';
    expect(code.split('\n').length).toBeLessThanOrEqual(12);
    const file = join(mkdtempSync(join(tmpdir(), 'guide-')), 'verify.mjs');
    writeFileSync(file, code);
    const { verifyAwakenSignature } = (await import(pathToFileURL(file).href)) as {
      verifyAwakenSignature: (secret: string, body: string, header: string) => boolean;
    };
    const secret = 'hook-secret-0123456789';
    const body = '{"id":"dlv_1","type":"approval.requested"}';
    const now = Math.floor(Date.now() / 1000);
    const header = signWebhook(secret, body, now);
    expect(verifyAwakenSignature(secret, body, header)).toBe(true);
    expect(verifyAwakenSignature(secret, body.replace('requested', 'decided'), header)).toBe(false);
    expect(verifyAwakenSignature('another-secret-0123', body, header)).toBe(false);
    expect(verifyAwakenSignature(secret, body, signWebhook(secret, body, now - 301))).toBe(false);
    expect(verifyAwakenSignature(secret, body, 'garbage')).toBe(false);
  });
});
