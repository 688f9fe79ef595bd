import { AwakenError, type RunRecord, runAskersOf, runStarterOf, validateJsonSchema } from '@awaken/contract';
import { type OpenAPIHono, createRoute, z } from '@hono/zod-openapi';
import { errorBody } from '../error-table';
import type { HttpEnv } from '../http-types';
import { notFound } from '../internal/views';
import { commonErrors, conflictError, idSchema, json, jsonBody } from '../schemas/common-schemas';
import { type LinkSigner, linkPath } from './link-signer';
import { waitingCallOf } from './waiting-call';
import { refuseChildRun } from '../../internal/child-runs/refuse-child-run';

const DAY_SECONDS = 86_400;

const issueBodySchema = z
  .object({
    approver: z
      .string()
      .min(1)
      .max(128)
      // an identity, compared exactly with the run's starter: no padding or control characters
      // that would make `alice ` pass for someone other than `alice`
      .regex(
        /^[^\s\p{Cc}](?:[^\p{Cc}]*[^\s\p{Cc}])?$/u,
        'must not start or end with whitespace nor hold control characters',
      )
      .optional()
      .openapi({ description: 'The approver the link is for: recorded as who decided' }),
    ttlSeconds: z
      .number()
      .int()
      .min(1)
      .max(30 * DAY_SECONDS)
      .optional()
      .openapi({ description: 'How long the link works (default one day; never past the ticket expiry)' }),
  })
  .strict();

const issuedSchema = z.object({
  url: z.string(),
  path: z.string(),
  runId: z.string(),
  ticketId: z.string(),
  expiresAt: z.number().int(),
  approver: z.string().optional(),
});

const issueLink = createRoute({
  method: 'post',
  path: '/v1/runs/{runId}/tickets/{ticketId}/links',
  tags: ['Decisions'],
  summary: 'Issue a signed, expiring approval link for one waiting ticket (scope decide)',
  request: {
    params: z.object({ runId: idSchema, ticketId: z.string().min(1).max(512) }),
    body: jsonBody(issueBodySchema, false),
  },
  responses: { 201: json(issuedSchema, 'The link'), ...commonErrors, ...conflictError },
});

/** What an asker did, for the refusal message. */
function role(record: RunRecord, subject: string): string {
  return subject === runStarterOf(record) ? 'started the run' : "asked for the run's actions";
}

/**
 * Why a link for a four-eyes ticket may not be issued: its issuer, or the approver it names, asked
 * for what the run does (`runAskersOf`: the starter, who steered or resumed it with input, who
 * edited a call's arguments). The link's approver is a name the issuer vouches for, so the issuer
 * must be a second person too.
 */
function fourEyesRefusal(record: RunRecord, ticketId: string, issuer: string, identity: string) {
  const askers = runAskersOf(record);
  if (askers.includes(issuer))
    return `ticket ${ticketId} needs an approver other than those who asked for it, and ${issuer} ${role(record, issuer)}: a link for it must be issued by someone else`;
  if (askers.includes(identity))
    return `ticket ${ticketId} needs an approver other than ${identity}, who ${role(record, identity)}: name another approver`;
  return undefined;
}

export interface LinkOptions {
  signer: LinkSigner;
  /** Base of the absolute URL (`https://agents.example.com`); default: the request's origin. */
  publicUrl?: string;
}

/**
 * `POST /v1/runs/:runId/tickets/:ticketId/links`: a link that answers this ticket, signed over the
 * tenant, run, ticket, expiry, approver and issuer — never a token in the URL. Unknown run or ticket
 * → 404; a ticket that no longer waits, or that is not an approval (a client tool's output) → 409;
 * for a four-eyes ticket, a link issued by one who asked for the run's actions, or naming one of them
 * as its approver → 403 `self_approval_forbidden` (the answer is judged again at click time, with the
 * issuer, against the askers the run has then).
 */
export function registerIssueLinkRoute(app: OpenAPIHono<HttpEnv>, options: LinkOptions): void {
  app.openapi(issueLink, async (c) => {
    const { runId, ticketId } = c.req.valid('param');
    const body: z.infer<typeof issueBodySchema> = c.req.valid('json') ?? {};
    c.var.ids.runId = runId;
    const record = await c.var.service.stores.threadRuns.getRun(runId);
    if (!record) throw notFound(`run ${runId}`);
    await refuseChildRun(c.var.service.stores.threadRuns, record, 'issue links for its tickets');
    const waiting = waitingCallOf(record, ticketId);
    if ('missing' in waiting) throw notFound(`ticket ${ticketId} of run ${runId}`);
    if ('answered' in waiting)
      throw new AwakenError('conflict', `ticket ${ticketId} no longer waits for an answer`);
    const { ticket } = waiting.call;
    // the page answers approve / deny: a ticket that asks for something else cannot take it
    const schema = ticket.suspension.responseSchema;
    if (
      ticket.resumeMode !== 'replay_tool_call' ||
      (schema && validateJsonSchema(schema, { approved: true }).length > 0)
    )
      throw new AwakenError('conflict', `ticket ${ticketId} is not an approval: answer it with a decision`);
    const { caller } = c.var;
    const approver = body.approver;
    const identity = approver ?? caller.subject;
    const refused = ticket.suspension.requiresDistinctApprover
      ? fourEyesRefusal(record, ticketId, caller.subject, identity)
      : undefined;
    // an error response the route's typed 201 does not describe (listed in commonErrors)
    if (refused) return c.json(errorBody('self_approval_forbidden', refused), 403) as never;
    const ttlMs = (body.ttlSeconds ?? DAY_SECONDS) * 1000;
    const ticketExpiry = ticket.expiresAt;
    const expiresAt = Math.min(Date.now() + ttlMs, ticketExpiry ?? Number.POSITIVE_INFINITY);
    const claims = {
      tenant: caller.tenant,
      runId,
      ticketId,
      expiresAt,
      ...(approver === undefined ? {} : { approver }),
      issuedBy: caller.subject,
    };
    const path = linkPath(claims, options.signer.sign(claims));
    const base = options.publicUrl ?? new URL(c.req.url).origin;
    c.var.log.info({ runId, ticketId, approver, expiresAt }, 'approval link issued');
    return c.json(
      {
        url: `${base.replace(/\/$/, '')}${path}`,
        path,
        runId,
        ticketId,
        expiresAt,
        ...(approver === undefined ? {} : { approver }),
      },
      201,
    );
  });
}
