import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import type { MailboxService } from '../types';
import type { A2aOptions } from './a2a/a2a-agents';
import type { NotificationOutbox } from '../notifications/create-notification-outbox';

/** What a token may do: read (GET), run (start, message, cancel…), decide (decisions, approval links). */
export type TokenScope = 'read' | 'run' | 'decide';

/** One bearer token the operator configured, and the tenant it acts for. */
export interface HttpToken {
  token: string;
  tenant: string;
  /** Who the token identifies (recorded as the caller of runs and decisions). Default `tenant`. */
  subject?: string;
  /**
   * What the token may do. Default: every scope. A route needing a scope the token lacks answers
   * 403 `forbidden_scope`; e.g. `['decide']` for an approver's token that can only answer tickets.
   */
  scopes?: readonly TokenScope[];
}

/** Who sent a request: recorded in logs, and as run and decision context. */
export interface Caller {
  tenant: string;
  subject: string;
  /** The scopes of the caller's token (every scope on an open server). */
  scopes: readonly TokenScope[];
  /** The request id (from `x-request-id`, or generated). */
  requestId: string;
}

/** Options of `createHttpApp`: the tenants' services, who may call, and the limits, logs and metrics. */
export interface HttpAppOptions {
  /**
   * The service of each tenant, keyed by tenant id. Each runs on its own stores (its own Redis key
   * prefix), so every store key and event stream is scoped by tenant.
   */
  tenants: Record<string, MailboxService>;
  /**
   * Bearer tokens. Empty or absent: the API is open and every request acts for `openTenant`
   * (bind such a server to loopback only).
   */
  tokens?: readonly HttpToken[];
  /** Tenant of every request when no token is configured. Default `default`. */
  openTenant?: string;
  /** Largest accepted request body, in bytes. Default 1 MiB. */
  bodyLimitBytes?: number;
  /** Interval of SSE keep-alive comments. Default 15 000 ms. */
  keepAliveMs?: number;
  /**
   * Event streams (SSE: run events, AI SDK chat streams) one tenant may have open at once in this
   * app (each process counts its own); beyond it a new one is refused with 429 `too_many_streams`
   * and `Retry-After`. Default 100.
   */
  maxStreamsPerTenant?: number;
  /** JSON logger. Default: silent. */
  logger?: Logger;
  /** Prometheus registry the app's metrics register in. Default: a registry of its own. */
  registry?: Registry;
  /**
   * The bearer token that reads `/metrics` (a scraper's, not a tenant's: the metrics name every
   * tenant). When tenant `tokens` are configured and this is absent, `/metrics` answers 401 to every
   * request; with no token configured at all (an open, loopback-only server) it is open.
   */
  metricsToken?: string;
  /** Threads sampled per tenant when `/metrics` counts runs and dispatches. Default 200. */
  metricsThreadSample?: number;
  /** Longest time one store check of `/health` may take. Default 2000 ms. */
  healthTimeoutMs?: number;
  /**
   * Origins a browser may call the API from (CORS), e.g. `['https://app.example.com']`, or `'*'`.
   * Default: none (no CORS headers; same-origin and non-browser clients only).
   */
  corsOrigins?: readonly string[] | '*';
  /**
   * Approval links (`POST /v1/runs/:runId/tickets/:ticketId/links`, pages under `/links/…`):
   * `secret` is the HMAC key (at least 32 characters; every process of a deployment needs the same);
   * without it each process draws a random key, so its links die when it restarts. `publicUrl` is
   * the base of the URLs handed out (default: the origin of the request that issued the link).
   */
  links?: { secret?: string; publicUrl?: string };
  /** The AI SDK (`useChat`) routes: the agent of `/v1/ai-sdk/chat` when a request names none. */
  aiSdk?: { defaultAgentId?: string };
  /**
   * The A2A routes (JSON-RPC at `/v1/a2a`, agent cards at `/.well-known/agent-card.json`): the agents
   * served and the default one. Absent: no A2A routes.
   */
  a2a?: A2aOptions;
  /**
   * Webhook notifications: each tenant's outbox (its deliveries are listed, and dead letters retried,
   * under `/v1/notifications/deliveries`), and the Slack app's signing secret, which enables the
   * interaction endpoint `POST /slack/interactions` answering the approval cards' buttons.
   */
  notifications?: {
    outboxes?: Readonly<Record<string, NotificationOutbox>>;
    slack?: { signingSecret: string };
  };
  /** Title and version of the OpenAPI document. */
  info?: { title?: string; version?: string };
}

/** Variables a request carries through the middleware chain. */
export interface HttpVariables {
  caller: Caller;
  service: MailboxService;
  log: Logger;
  /** Ids a route touched, added to its log line (never message content). */
  ids: LoggedIds;
}

/** Ids of the thread, run and dispatch a request touched. */
export interface LoggedIds {
  threadId?: string;
  runId?: string;
  dispatchId?: string;
}

/** The Hono environment of the app's routes: what a route can read from `c.var`. */
export interface HttpEnv {
  Variables: HttpVariables;
}
