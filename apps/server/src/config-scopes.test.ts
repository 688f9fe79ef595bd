import { describe, expect, it } from 'vitest';
import { loadConfig } from './config';

describe('token scopes and the approval link secret in the environment', () => {
  it('reads token:tenant:subject:scopes (joined by +); a token without scopes has every scope', () => {
    const config = loadConfig({
      AWAKEN_TOKENS:
        'approver-token-00001:acme:carol:decide,reader-token-0000001:acme:rita:read+run,full-token-00000001:acme',
    });
    expect(config.AWAKEN_TOKENS).toEqual([
      { token: 'approver-token-00001', tenant: 'acme', subject: 'carol', scopes: ['decide'] },
      { token: 'reader-token-0000001', tenant: 'acme', subject: 'rita', scopes: ['read', 'run'] },
      { token: 'full-token-00000001', tenant: 'acme' },
    ]);
  });

  it('refuses an unknown scope, naming the variable and the value', () => {
    expect(() => loadConfig({ AWAKEN_TOKENS: 'approver-token-00001:acme:carol:admin' })).toThrow(
      /AWAKEN_TOKENS: scopes are read, run and decide joined by \+.*"admin"/,
    );
    expect(() => loadConfig({ AWAKEN_TOKENS: 'approver-token-00001:acme:carol:' })).toThrow(/AWAKEN_TOKENS/);
  });

  it('takes a link secret of at least 32 characters and an http(s) public URL', () => {
    const secret = 'x'.repeat(32);
    const config = loadConfig({
      AWAKEN_LINK_SECRET: secret,
      AWAKEN_PUBLIC_URL: 'https://agents.example.com',
    });
    expect(config.AWAKEN_LINK_SECRET).toBe(secret);
    expect(config.AWAKEN_PUBLIC_URL).toBe('https://agents.example.com');
    expect(() => loadConfig({ AWAKEN_LINK_SECRET: 'short' })).toThrow(/AWAKEN_LINK_SECRET: at least 32/);
    expect(() => loadConfig({ AWAKEN_PUBLIC_URL: 'agents.example.com' })).toThrow(/AWAKEN_PUBLIC_URL/);
  });
});
