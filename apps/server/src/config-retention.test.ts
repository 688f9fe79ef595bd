import { describe, expect, it } from 'vitest';
import { loadConfig } from './config';

describe('AWAKEN_WEBHOOK_RETAIN_DAYS', () => {
  it('keeps delivered deliveries 7 days by default, takes 0 (for ever) and refuses a negative count by name', () => {
    expect(loadConfig({}).AWAKEN_WEBHOOK_RETAIN_DAYS).toBe(7);
    expect(loadConfig({ AWAKEN_WEBHOOK_RETAIN_DAYS: '0' }).AWAKEN_WEBHOOK_RETAIN_DAYS).toBe(0);
    expect(loadConfig({ AWAKEN_WEBHOOK_RETAIN_DAYS: '30' }).AWAKEN_WEBHOOK_RETAIN_DAYS).toBe(30);
    expect(() => loadConfig({ AWAKEN_WEBHOOK_RETAIN_DAYS: '-1' })).toThrow(/AWAKEN_WEBHOOK_RETAIN_DAYS/);
    expect(() => loadConfig({ AWAKEN_WEBHOOK_RETAIN_DAYS: 'week' })).toThrow(/AWAKEN_WEBHOOK_RETAIN_DAYS/);
  });
});
