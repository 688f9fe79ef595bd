import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config';

describe('configuration from the environment', () => {
  it('has embedded defaults: loopback, port 3000, memory stores, demo model, open', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({ PORT: 3000, HOST: '127.0.0.1', AWAKEN_TOKENS: [], AWAKEN_WORKERS: 4 });
    expect(config.REDIS_URL).toBeUndefined();
    expect(config.OPENAI_API_KEY).toBeUndefined();
  });

  it('reads tokens as token:tenant[:subject], ignoring unrelated and empty variables', () => {
    const config = loadConfig({
      AWAKEN_TOKENS: 'a-very-long-token-1:acme:alice, another-long-token-2:globex',
      HOST: '0.0.0.0',
      REDIS_URL: '',
      HOME: '/root',
    });
    expect(config.AWAKEN_TOKENS).toEqual([
      { token: 'a-very-long-token-1', tenant: 'acme', subject: 'alice' },
      { token: 'another-long-token-2', tenant: 'globex' },
    ]);
    expect(config.HOST).toBe('0.0.0.0');
    expect(
      loadConfig({ AWAKEN_CORS_ORIGINS: 'https://a.example, http://localhost:5173' }).AWAKEN_CORS_ORIGINS,
    ).toEqual(['https://a.example', 'http://localhost:5173']);
    expect(() => loadConfig({ AWAKEN_CORS_ORIGINS: 'a.example/path' })).toThrow(/AWAKEN_CORS_ORIGINS/);
  });

  it('reads REDIS_CLUSTER_NODES as host:port pairs, never together with REDIS_URL', () => {
    const nodes = '127.0.0.1:7001, 127.0.0.1:7002,redis-3.internal:7003';
    expect(loadConfig({ REDIS_CLUSTER_NODES: nodes }).REDIS_CLUSTER_NODES).toBe(nodes);
    expect(() => loadConfig({ REDIS_CLUSTER_NODES: '127.0.0.1' })).toThrow(/REDIS_CLUSTER_NODES: host:port/);
    expect(() => loadConfig({ REDIS_CLUSTER_NODES: 'redis://127.0.0.1:7001' })).toThrow(
      /REDIS_CLUSTER_NODES/,
    );
    expect(() =>
      loadConfig({ REDIS_CLUSTER_NODES: '127.0.0.1:7001', REDIS_URL: 'redis://127.0.0.1:6379' }),
    ).toThrow(/not both/);
  });

  it('reads REDIS_WAIT_FOR_REPLICAS (and its timeout) only with a Redis, refusing bad values by name', () => {
    const redis = { REDIS_URL: 'redis://127.0.0.1:6379' };
    const plain = loadConfig(redis);
    expect([plain.REDIS_WAIT_FOR_REPLICAS, plain.REDIS_WAIT_TIMEOUT_MS]).toEqual([undefined, undefined]);
    expect(
      loadConfig({
        REDIS_CLUSTER_NODES: '127.0.0.1:7001',
        REDIS_WAIT_FOR_REPLICAS: '1',
        REDIS_WAIT_TIMEOUT_MS: '250',
      }),
    ).toMatchObject({ REDIS_WAIT_FOR_REPLICAS: 1, REDIS_WAIT_TIMEOUT_MS: 250 });
    expect(() => loadConfig({ ...redis, REDIS_WAIT_FOR_REPLICAS: '0' })).toThrow(
      /REDIS_WAIT_FOR_REPLICAS must be at least 1/,
    );
    expect(() => loadConfig({ ...redis, REDIS_WAIT_FOR_REPLICAS: 'yes' })).toThrow(
      /REDIS_WAIT_FOR_REPLICAS must be a number/,
    );
    expect(() => loadConfig({ ...redis, REDIS_WAIT_FOR_REPLICAS: '1.5' })).toThrow(
      /REDIS_WAIT_FOR_REPLICAS must be an integer/,
    );
    expect(() => loadConfig({ ...redis, REDIS_WAIT_FOR_REPLICAS: '1', REDIS_WAIT_TIMEOUT_MS: '0' })).toThrow(
      /REDIS_WAIT_TIMEOUT_MS must be at least 1/,
    );
    expect(() => loadConfig({ REDIS_WAIT_FOR_REPLICAS: '1' })).toThrow(
      /REDIS_WAIT_FOR_REPLICAS: only with REDIS_URL or REDIS_CLUSTER_NODES/,
    );
    expect(() => loadConfig({ ...redis, REDIS_WAIT_TIMEOUT_MS: '500' })).toThrow(
      /REDIS_WAIT_TIMEOUT_MS: only with REDIS_WAIT_FOR_REPLICAS/,
    );
  });

  it('names each bad variable in one readable error', () => {
    const read = () =>
      loadConfig({ PORT: 'eighty', REDIS_URL: 'localhost:6379', AWAKEN_WORKERS: '-1', LOG_LEVEL: 'loud' });
    expect(read).toThrow(ConfigError);
    const message = (() => {
      try {
        read();
        return '';
      } catch (error) {
        return (error as Error).message;
      }
    })();
    for (const variable of ['PORT', 'REDIS_URL', 'AWAKEN_WORKERS', 'LOG_LEVEL'])
      expect(message).toContain(variable);
  });

  it('refuses to listen beyond loopback without tokens, short tokens and a token listed twice', () => {
    expect(() => loadConfig({ HOST: '0.0.0.0' })).toThrow(/HOST: without AWAKEN_TOKENS/);
    expect(() => loadConfig({ AWAKEN_TOKENS: 'short:acme' })).toThrow(/AWAKEN_TOKENS/);
    expect(() => loadConfig({ AWAKEN_TOKENS: 'a-very-long-token-1:Acme!' })).toThrow(/AWAKEN_TOKENS/);
    expect(() => loadConfig({ AWAKEN_TOKENS: 'a-very-long-token-1:a,a-very-long-token-1:b' })).toThrow(
      /listed twice/,
    );
  });
});
