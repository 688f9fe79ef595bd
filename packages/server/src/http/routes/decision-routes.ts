import { randomUUID } from 'node:crypto';
import { AwakenError, type ToolCallDecisionInput } from '@awaken/contract';
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { errorBody } from '../error-table';
import type { HttpEnv } from '../http-types';
import { callerOf } from '../internal/run-context';
import type { RunTarget } from '../../types';
import { apiRoutes } from '../schemas/api-routes';
import {
  conflictError,
  json,
  jsonBody,
  runParamsSchema,
  threadParamsSchema,
} from '../schemas/common-schemas';
import { type DecisionBody, decisionBodySchema, decisionsBodySchema } from '../schemas/request-schemas';
import { decideResultSchema } from '../schemas/resource-schemas';

const route = apiRoutes(['Decisions']);
const decided = {
  200: json(decideResultSchema, 'One receipt per decision: accepted, duplicate or rejected (with why)'),
  ...conflictError,
};

/** The two decision routes below `path`: one decision, and a batch, sent to `to`. */
function decisionRoutes(target: {
  path: string;
  params: typeof runParamsSchema | typeof threadParamsSchema;
  to: string;
}) {
  const { path, params, to } = target;
  return {
    one: route.post(`${path}/decision`, {
      summary: `Send one decision to ${to}`,
      request: { params, body: jsonBody(decisionBodySchema) },
      responses: decided,
    }),
    batch: route.post(`${path}/decisions`, {
      summary: `Send a batch of decisions to ${to}`,
      request: { params, body: jsonBody(decisionsBodySchema) },
      responses: decided,
    }),
  };
}

const toRun = decisionRoutes({ path: '/v1/runs/{runId}', params: runParamsSchema, to: 'a run' });
const toThread = decisionRoutes({
  path: '/v1/threads/{threadId}',
  params: threadParamsSchema,
  to: "the thread's open run",
});

/** A decision as the service takes it: addressed, stamped, and carrying who decided. */
export function toDecision(c: Context<HttpEnv>, body: DecisionBody): ToolCallDecisionInput {
  return {
    ...(body.toolCallId === undefined ? {} : { toolCallId: body.toolCallId }),
    ...(body.ticketId === undefined ? {} : { ticketId: body.ticketId }),
    decisionId: body.decisionId ?? randomUUID(),
    action: body.action ?? 'resume',
    ...(body.result === undefined ? {} : { result: body.result }),
    ...(body.reason === undefined ? {} : { reason: body.reason }),
    updatedAt: Date.now(),
    context: { caller: callerOf(c) },
    decidedBy: c.var.caller.subject,
    channel: 'api',
  };
}

async function decide(c: Context<HttpEnv>, target: RunTarget, bodies: DecisionBody[]) {
  if ('runId' in target) c.var.ids.runId = target.runId;
  else c.var.ids.threadId = target.threadId;
  const result = await c.var.service.commands.decide(
    target,
    bodies.map((body) => toDecision(c, body)),
  );
  c.var.ids.runId = result.runId;
  if (result.resumeDispatchId) c.var.ids.dispatchId = result.resumeDispatchId;
  // the audit trail of who decided what (the caller is bound to the logger): ids and outcomes only
  for (const receipt of result.receipts) {
    c.var.log.info(
      {
        runId: result.runId,
        toolCallId: receipt.toolCallId,
        decisionId: receipt.decisionId,
        status: receipt.status,
      },
      'decision',
    );
  }
  // nothing applied: a decision for a call that does not wait (or a finished run) is a conflict
  if (result.receipts.every((receipt) => receipt.status === 'rejected')) {
    const first = result.receipts[0];
    const message = first && 'message' in first ? first.message : 'decision rejected';
    // a payload that fails the ticket's response schema is invalid input (422); the rest conflicts (409)
    const reason = first && 'reason' in first ? first.reason : undefined;
    const invalid = reason === 'invalid_payload';
    // four-eyes: the approver is the one who started the run (or nobody identified)
    if (reason === 'self_approval_forbidden') {
      return c.json(
        errorBody('self_approval_forbidden', message, { runId: result.runId, receipts: result.receipts }),
        403,
      );
    }
    // an answer to an expired ticket has its own code (still a 409): too late, never applied
    const code = invalid
      ? 'validation_failed'
      : reason === 'ticket_expired'
        ? 'ticket_expired'
        : 'decision_rejected';
    throw new AwakenError(code, message, {
      details: { runId: result.runId, receipts: result.receipts },
    });
  }
  return c.json(result, 200);
}

export function registerDecisionRoutes(app: OpenAPIHono<HttpEnv>): void {
  for (const routes of [toRun, toThread]) {
    app.openapi(routes.one, (c) => decide(c, c.req.valid('param'), [c.req.valid('json')]));
    app.openapi(routes.batch, (c) => decide(c, c.req.valid('param'), c.req.valid('json').decisions));
  }
}
