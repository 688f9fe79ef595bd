import { z } from 'zod';
import { webhooksVariable } from './webhook-config';

const TENANT = /^[a-z0-9][a-z0-9_-]{0,63}$/;
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1']);

const int = (name: string, fallback: number, min: number, max: number) =>
  z.coerce
    .number({ error: `${name} must be a number` })
    .int(`${name} must be an integer`)
    .min(min, `${name} must be at least ${min}`)
    .max(max, `${name} must be at most ${max}`)
    .default(fallback);

/** An optional integer variable: no default (unset stays undefined). */
const optionalInt = (name: string, min: number, max: number) =>
  z.coerce
    .number({ error: `${name} must be a number` })
    .int(`${name} must be an integer`)
    .min(min, `${name} must be at least ${min}`)
    .max(max, `${name} must be at most ${max}`)
    .optional();

/** A comma-separated variable as its trimmed, non-empty entries (unset: none). */
const commaList = z
  .string()
  .optional()
  .transform((value) =>
    (value ?? '')
      .split(',')
      .map((entry) => entry.trim())
      .filter(Boolean),
  );

const SCOPES = ['read', 'run', 'decide'] as const;
type Scope = (typeof SCOPES)[number];

/** `read+decide` → the scopes; undefined when a name is not a scope (or the list is empty). */
function parseScopes(text: string): Scope[] | undefined {
  const names = text.split('+');
  if (!names.every((name): name is Scope => (SCOPES as readonly string[]).includes(name))) return undefined;
  return [...new Set(names)];
}

/**
 * One entry of `AWAKEN_TOKENS`: `token:tenant`, `token:tenant:subject` or
 * `token:tenant:subject:scopes` (scopes joined by `+`, e.g. `decide` or `read+decide`; default all).
 */
const tokenEntry = z.string().transform((entry, context) => {
  const [token = '', tenant = '', subject, scopeText, ...rest] = entry.split(':');
  const scopes = scopeText === undefined ? undefined : parseScopes(scopeText);
  if (token.length < 16 || !TENANT.test(tenant) || rest.length > 0 || subject === '') {
    context.addIssue({
      code: 'custom',
      message:
        'AWAKEN_TOKENS: each entry is token:tenant[:subject[:scopes]], the token at least 16 characters, the tenant lowercase letters, digits, - or _',
    });
    return z.NEVER;
  }
  if (scopeText !== undefined && !scopes) {
    context.addIssue({
      code: 'custom',
      message: `AWAKEN_TOKENS: scopes are read, run and decide joined by + (e.g. read+decide), not ${JSON.stringify(scopeText)}`,
    });
    return z.NEVER;
  }
  return { token, tenant, ...(subject ? { subject } : {}), ...(scopes ? { scopes } : {}) };
});

/** The environment the reference server reads, validated; every error names its variable. */
export const appConfigSchema = z
  .object({
    PORT: int('PORT', 3000, 0, 65535),
    HOST: z.string().min(1).default('127.0.0.1'),
    REDIS_URL: z
      .string()
      .regex(/^rediss?:\/\//, 'REDIS_URL must start with redis:// or rediss://')
      .optional(),
    /**
     * `host:port,host:port,…` of a Redis Cluster (some of its nodes): the Redis stores on the cluster,
     * the mailbox sharded over its masters. Instead of REDIS_URL, never with it.
     */
    REDIS_CLUSTER_NODES: z
      .string()
      .regex(
        /^\s*[^\s,:]+:\d{1,5}\s*(,\s*[^\s,:]+:\d{1,5}\s*)*$/,
        'REDIS_CLUSTER_NODES: host:port of cluster nodes, comma-separated',
      )
      .optional(),
    /**
     * Acknowledge a Redis write only once this many replicas hold it (the stores' `waitForReplicas`:
     * `WAIT` after each write, a write not confirmed in time fails as a retryable store_failure).
     * Unset: no waiting (Redis's default: a failover can lose a write its master acknowledged).
     */
    REDIS_WAIT_FOR_REPLICAS: optionalInt('REDIS_WAIT_FOR_REPLICAS', 1, 16),
    /** How long a write waits for REDIS_WAIT_FOR_REPLICAS replicas (ms, default 1000); only with it. */
    REDIS_WAIT_TIMEOUT_MS: optionalInt('REDIS_WAIT_TIMEOUT_MS', 1, 60_000),
    DATABASE_URL: z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'DATABASE_URL must start with postgres:// or postgresql://')
      .optional(),
    AWAKEN_PG_SCHEMA: z
      .string()
      .regex(
        /^[a-z_][a-z0-9_]{0,19}$/,
        'AWAKEN_PG_SCHEMA: up to 20 lower-case letters, digits or _, not starting with a digit',
      )
      .default('awaken'),
    AWAKEN_REDIS_PREFIX: z
      .string()
      .regex(/^[\w.-]{1,64}$/, 'AWAKEN_REDIS_PREFIX: letters, digits, . - _')
      .default('awaken'),
    AWAKEN_TOKENS: commaList.pipe(z.array(tokenEntry)),
    /** The scraper's token for `/metrics` (which names every tenant): not a tenant's token. */
    AWAKEN_METRICS_TOKEN: z.string().min(16, 'AWAKEN_METRICS_TOKEN: at least 16 characters').optional(),
    AWAKEN_CORS_ORIGINS: commaList.pipe(
      z.array(
        z
          .string()
          .regex(
            /^(\*|https?:\/\/[^\s/]+)$/,
            'AWAKEN_CORS_ORIGINS: * or origins like https://app.example.com',
          ),
      ),
    ),
    /**
     * The HMAC key of approval links (at least 32 characters). Unset: a random key per process, so
     * links stop working when the process restarts and work only on the process that issued them.
     */
    AWAKEN_LINK_SECRET: z.string().min(32, 'AWAKEN_LINK_SECRET: at least 32 characters').optional(),
    /** The public base URL approval links start with, e.g. `https://agents.example.com`. */
    AWAKEN_PUBLIC_URL: z
      .string()
      .regex(/^https?:\/\/[^\s]+$/, 'AWAKEN_PUBLIC_URL: an http(s) URL')
      .optional(),
    /** Webhook endpoints (JSON array, or `@<path>` of a JSON file): see `webhook-config.ts`. */
    AWAKEN_WEBHOOKS: webhooksVariable,
    /** The Slack app's signing secret: enables `POST /slack/interactions` (the approval cards' buttons). */
    AWAKEN_SLACK_SIGNING_SECRET: z
      .string()
      .min(16, 'AWAKEN_SLACK_SIGNING_SECRET: at least 16 characters')
      .optional(),
    /** Longest wait for a webhook receiver's answer. */
    AWAKEN_WEBHOOK_TIMEOUT_MS: int('AWAKEN_WEBHOOK_TIMEOUT_MS', 10_000, 100, 120_000),
    /** Attempts of one delivery before it is dead-lettered. */
    AWAKEN_WEBHOOK_MAX_ATTEMPTS: int('AWAKEN_WEBHOOK_MAX_ATTEMPTS', 8, 1, 100),
    /** Delay before the first retry of a delivery (doubled each time, at most 5 minutes). */
    AWAKEN_WEBHOOK_RETRY_MS: int('AWAKEN_WEBHOOK_RETRY_MS', 1_000, 10, 600_000),
    /** Days a delivered (or otherwise ended) delivery is kept before the hourly sweep purges it; 0: kept for ever. */
    AWAKEN_WEBHOOK_RETAIN_DAYS: int('AWAKEN_WEBHOOK_RETAIN_DAYS', 7, 0, 3650),
    OPENAI_API_KEY: z.string().min(1).optional(),
    ANTHROPIC_API_KEY: z.string().min(1).optional(),
    AWAKEN_MODEL: z.string().min(1).optional(),
    AWAKEN_WORKERS: int('AWAKEN_WORKERS', 4, 0, 256),
    AWAKEN_LEASE_MS: int('AWAKEN_LEASE_MS', 30_000, 200, 3_600_000),
    AWAKEN_BODY_LIMIT: int('AWAKEN_BODY_LIMIT', 1024 * 1024, 1024, 64 * 1024 * 1024),
    AWAKEN_KEEPALIVE_MS: int('AWAKEN_KEEPALIVE_MS', 15_000, 50, 600_000),
    AWAKEN_MAX_STREAMS: int('AWAKEN_MAX_STREAMS', 100, 1, 100_000),
    AWAKEN_SHUTDOWN_GRACE_MS: int('AWAKEN_SHUTDOWN_GRACE_MS', 10_000, 0, 600_000),
    AWAKEN_DEMO_DELAY_MS: int('AWAKEN_DEMO_DELAY_MS', 40, 0, 10_000),
    /** How long the demo's `restart_service` approval waits before it expires. */
    AWAKEN_DEMO_APPROVAL_MS: int('AWAKEN_DEMO_APPROVAL_MS', 20_000, 100, 3_600_000),
    /** A remote A2A agent: adds the `delegate` demo agent, whose `ask_remote` tool calls it. */
    AWAKEN_A2A_REMOTE_URL: z
      .string()
      .regex(/^https?:\/\/\S+$/, 'AWAKEN_A2A_REMOTE_URL: an http(s) URL of an A2A agent')
      .optional(),
    /** The bearer token sent to AWAKEN_A2A_REMOTE_URL. */
    AWAKEN_A2A_REMOTE_TOKEN: z.string().min(1).optional(),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  })
  .superRefine((config, context) => {
    if (config.REDIS_URL && config.REDIS_CLUSTER_NODES) {
      context.addIssue({
        code: 'custom',
        path: ['REDIS_CLUSTER_NODES'],
        message:
          'REDIS_CLUSTER_NODES: set REDIS_URL (one Redis) or REDIS_CLUSTER_NODES (a cluster), not both',
      });
    }
    if (config.REDIS_WAIT_FOR_REPLICAS !== undefined && !config.REDIS_URL && !config.REDIS_CLUSTER_NODES) {
      context.addIssue({
        code: 'custom',
        path: ['REDIS_WAIT_FOR_REPLICAS'],
        message: 'REDIS_WAIT_FOR_REPLICAS: only with REDIS_URL or REDIS_CLUSTER_NODES (no Redis is in use)',
      });
    }
    if (config.REDIS_WAIT_TIMEOUT_MS !== undefined && config.REDIS_WAIT_FOR_REPLICAS === undefined) {
      context.addIssue({
        code: 'custom',
        path: ['REDIS_WAIT_TIMEOUT_MS'],
        message: 'REDIS_WAIT_TIMEOUT_MS: only with REDIS_WAIT_FOR_REPLICAS',
      });
    }
    if (config.AWAKEN_TOKENS.length === 0 && !LOOPBACK.has(config.HOST)) {
      context.addIssue({
        code: 'custom',
        path: ['HOST'],
        message: `HOST: without AWAKEN_TOKENS the API is open and listens on loopback only (127.0.0.1, ::1, localhost), not ${config.HOST}`,
      });
    }
    const tokens = new Set(config.AWAKEN_TOKENS.map((entry) => entry.token));
    if (tokens.size !== config.AWAKEN_TOKENS.length) {
      context.addIssue({
        code: 'custom',
        path: ['AWAKEN_TOKENS'],
        message: 'AWAKEN_TOKENS: a token is listed twice',
      });
    }
    const tenants = new Set(
      config.AWAKEN_TOKENS.length > 0 ? config.AWAKEN_TOKENS.map((entry) => entry.tenant) : ['default'],
    );
    for (const hook of config.AWAKEN_WEBHOOKS) {
      if (!tenants.has(hook.tenant)) {
        context.addIssue({
          code: 'custom',
          path: ['AWAKEN_WEBHOOKS'],
          message: `AWAKEN_WEBHOOKS: endpoint ${hook.id} names tenant "${hook.tenant}", which no token of AWAKEN_TOKENS serves`,
        });
      }
    }
    if (config.AWAKEN_METRICS_TOKEN && tokens.has(config.AWAKEN_METRICS_TOKEN)) {
      context.addIssue({
        code: 'custom',
        path: ['AWAKEN_METRICS_TOKEN'],
        message: "AWAKEN_METRICS_TOKEN: must not be a tenant's token",
      });
    }
  });
export type AppConfig = z.infer<typeof appConfigSchema>;

/** Thrown for a bad environment; its message lists each offending variable. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

/** Reads and validates the configuration from `env`. */
export function loadConfig(env: Record<string, string | undefined>): AppConfig {
  const relevant = Object.fromEntries(
    Object.entries(env).filter(
      ([key, value]) => key in appConfigSchema.shape && value !== undefined && value !== '',
    ),
  );
  const result = appConfigSchema.safeParse(relevant);
  if (result.success) return result.data;
  const lines = result.error.issues.map((issue) => {
    const variable = String(issue.path[0] ?? '');
    return issue.message.startsWith(variable) && variable
      ? `- ${issue.message}`
      : `- ${variable}: ${issue.message}`;
  });
  throw new ConfigError(`invalid configuration:\n${lines.join('\n')}`);
}
