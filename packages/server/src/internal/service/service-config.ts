import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { AwakenError, formatZodIssues } from '@awaken/contract';
import { z } from 'zod';
import type { MailboxServiceOptions } from '../../types';

const positiveInt = z.number().int().positive();

/** The numeric service options, each with its default. Cross-field defaults are filled in below. */
export const serviceTimingSchema = z.object({
  concurrency: z.number().int().min(0).max(1000).default(4),
  leaseMs: positiveInt.min(50).default(30_000),
  heartbeatMs: positiveInt.optional(),
  sweepIntervalMs: positiveInt.optional(),
  idleWaitMs: positiveInt.default(1_000),
  maxAttempts: positiveInt.max(1000).default(5),
  hotCacheSize: z.number().int().min(0).default(256),
  retry: z
    .object({
      baseDelayMs: z.number().int().min(0).default(1_000),
      maxDelayMs: z.number().int().min(0).default(60_000),
      jitter: z.number().min(0).max(1).default(0.5),
    })
    .default({ baseDelayMs: 1_000, maxDelayMs: 60_000, jitter: 0.5 }),
});

export interface ServiceConfig {
  workerId: string;
  concurrency: number;
  leaseMs: number;
  heartbeatMs: number;
  sweepIntervalMs: number;
  idleWaitMs: number;
  maxAttempts: number;
  hotCacheSize: number;
  retry: { baseDelayMs: number; maxDelayMs: number; jitter: number };
  random: () => number;
  createId: () => string;
  onError: (error: unknown, context: string) => void;
}

function defaultWorkerId(): string {
  return `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
}

/** Validates the options and fills in defaults; a bad value is `invalid_config` naming the field. */
export function resolveServiceConfig(options: MailboxServiceOptions): ServiceConfig {
  const parsed = serviceTimingSchema.safeParse({
    concurrency: options.concurrency,
    leaseMs: options.leaseMs,
    heartbeatMs: options.heartbeatMs,
    sweepIntervalMs: options.sweepIntervalMs,
    idleWaitMs: options.idleWaitMs,
    maxAttempts: options.maxAttempts,
    hotCacheSize: options.hotCacheSize,
    retry: options.retry,
  });
  if (!parsed.success) {
    throw new AwakenError(
      'invalid_config',
      `invalid service options: ${formatZodIssues(parsed.error.issues)}`,
    );
  }
  const timing = parsed.data;
  const heartbeatMs = timing.heartbeatMs ?? Math.max(10, Math.floor(timing.leaseMs / 3));
  if (heartbeatMs >= timing.leaseMs) {
    throw new AwakenError(
      'invalid_config',
      `heartbeatMs (${heartbeatMs}) must be shorter than leaseMs (${timing.leaseMs})`,
    );
  }
  if (options.workerId !== undefined && (typeof options.workerId !== 'string' || options.workerId === '')) {
    throw new AwakenError('invalid_config', 'workerId must be a non-empty string');
  }
  return {
    ...timing,
    workerId: options.workerId ?? defaultWorkerId(),
    heartbeatMs,
    sweepIntervalMs: timing.sweepIntervalMs ?? Math.max(10, Math.floor(timing.leaseMs / 2)),
    random: options.random ?? Math.random,
    createId: options.createId ?? randomUUID,
    onError: options.onError ?? (() => {}),
  };
}
