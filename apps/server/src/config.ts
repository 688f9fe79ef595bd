import { z } from 'zod';

const TENANT = /^[a-z0-9][a-z0-9_-]{0,63}$/;
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1']);

const int = (name: string, fallback: number, min: number, max: number) =>
  z.coerce
    .number({ error: `${name} must be a number` })
    .int(`${name} must be an integer`)
    .min(min, `${name} must be at least ${min}`)
    .max(max, `${name} must be at most ${max}`)
    .default(fallback);

/** One entry of `AWAKEN_TOKENS`: `token:tenant` or `token:tenant:subject`. */
const tokenEntry = z.string().transform((entry, context) => {
  const [token = '', tenant = '', subject, ...rest] = entry.split(':');
  if (token.length < 16 || !TENANT.test(tenant) || rest.length > 0 || subject === '') {
    context.addIssue({
      code: 'custom',
      message:
        'AWAKEN_TOKENS: each entry is token:tenant[:subject], the token at least 16 characters, the tenant lowercase letters, digits, - or _',
    });
    return z.NEVER;
  }
  return { token, tenant, ...(subject ? { subject } : {}) };
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
    AWAKEN_TOKENS: z
      .string()
      .optional()
      .transform((value) =>
        (value ?? '')
          .split(',')
          .map((entry) => entry.trim())
          .filter(Boolean),
      )
      .pipe(z.array(tokenEntry)),
    /** The scraper's token for `/metrics` (which names every tenant): not a tenant's token. */
    AWAKEN_METRICS_TOKEN: z.string().min(16, 'AWAKEN_METRICS_TOKEN: at least 16 characters').optional(),
    AWAKEN_CORS_ORIGINS: z
      .string()
      .optional()
      .transform((value) =>
        (value ?? '')
          .split(',')
          .map((entry) => entry.trim())
          .filter(Boolean),
      )
      .pipe(
        z.array(
          z
            .string()
            .regex(
              /^(\*|https?:\/\/[^\s/]+)$/,
              'AWAKEN_CORS_ORIGINS: * or origins like https://app.example.com',
            ),
        ),
      ),
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
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  })
  .superRefine((config, context) => {
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
