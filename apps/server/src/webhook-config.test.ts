import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from './config';

const hook = { url: 'http://127.0.0.1:9000/hook', secret: 'hook-secret-0123456789' };

describe('AWAKEN_WEBHOOKS', () => {
  it('reads endpoints inline or from @<file>, with tenant, id and format defaults', () => {
    const inline = loadConfig({
      AWAKEN_WEBHOOKS: JSON.stringify([hook, { ...hook, id: 'slack', format: 'slack' }]),
    });
    expect(inline.AWAKEN_WEBHOOKS).toEqual([
      { ...hook, id: 'webhook-1', tenant: 'default', format: 'awaken' },
      { ...hook, id: 'slack', tenant: 'default', format: 'slack' },
    ]);
    const file = join(mkdtempSync(join(tmpdir(), 'hooks-')), 'webhooks.json');
    writeFileSync(file, JSON.stringify([{ ...hook, events: ['approval.requested'], approver: 'dana' }]));
    expect(loadConfig({ AWAKEN_WEBHOOKS: `@${file}` }).AWAKEN_WEBHOOKS).toEqual([
      {
        ...hook,
        id: 'webhook-1',
        tenant: 'default',
        format: 'awaken',
        events: ['approval.requested'],
        approver: 'dana',
      },
    ]);
    expect(loadConfig({}).AWAKEN_WEBHOOKS).toEqual([]);
  });

  it('refuses bad endpoints naming the variable and the field', () => {
    expect(() => loadConfig({ AWAKEN_WEBHOOKS: '{not json' })).toThrow(/AWAKEN_WEBHOOKS: not valid JSON/);
    expect(() => loadConfig({ AWAKEN_WEBHOOKS: '@/nonexistent/webhooks.json' })).toThrow(
      /AWAKEN_WEBHOOKS: cannot read/,
    );
    expect(() => loadConfig({ AWAKEN_WEBHOOKS: JSON.stringify([{ ...hook, url: 'ftp://x' }]) })).toThrow(
      /AWAKEN_WEBHOOKS: \[0\.url\]/,
    );
    // URLs the regex let through but fetch refuses at every attempt (each delivery dead-lettered)
    for (const url of [
      'http://%zz/hook',
      'http://[::1/hook',
      'http://:80/hook',
      'http://user:pw@127.0.0.1/hook',
    ]) {
      expect(() => loadConfig({ AWAKEN_WEBHOOKS: JSON.stringify([{ ...hook, url }]) }), url).toThrow(
        /AWAKEN_WEBHOOKS: \[0\.url\]/,
      );
    }
    expect(() => loadConfig({ AWAKEN_WEBHOOKS: JSON.stringify([{ ...hook, secret: 'short' }]) })).toThrow(
      /AWAKEN_WEBHOOKS: \[0\.secret\]/,
    );
    expect(() =>
      loadConfig({ AWAKEN_WEBHOOKS: JSON.stringify([{ ...hook, events: ['run.started'] }]) }),
    ).toThrow(/AWAKEN_WEBHOOKS: \[0\.events\.0\]/);
    expect(() =>
      loadConfig({
        AWAKEN_WEBHOOKS: JSON.stringify([
          { ...hook, id: 'a' },
          { ...hook, id: 'a' },
        ]),
      }),
    ).toThrow(/listed twice/);
    expect(() => loadConfig({ AWAKEN_WEBHOOKS: JSON.stringify([{ ...hook, tenant: 'acme' }]) })).toThrow(
      /names tenant "acme", which no token of AWAKEN_TOKENS serves/,
    );
    expect(() => loadConfig({ AWAKEN_WEBHOOKS: JSON.stringify([{ ...hook, extra: 1 }]) })).toThrow(
      /AWAKEN_WEBHOOKS/,
    );
  });
});
