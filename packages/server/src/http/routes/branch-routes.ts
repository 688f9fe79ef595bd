import { AwakenError, threadBranching } from '@awaken/contract';
import { type OpenAPIHono, z } from '@hono/zod-openapi';
import type { HttpEnv } from '../http-types';
import { pageRequestOf } from '../internal/paging';
import { requireThread } from '../internal/require-resource';
import { apiRoutes } from '../schemas/api-routes';
import {
  conflictError,
  idSchema,
  json,
  jsonBody,
  pageQuerySchema,
  threadParamsSchema,
} from '../schemas/common-schemas';
import { pageOf, threadViewSchema } from '../schemas/resource-schemas';

const route = apiRoutes(['Threads']);

const seqSchema = z.number().int().min(0);

export const createBranchBodySchema = z
  .object({
    atSeq: seqSchema.openapi({
      description:
        "The seq of the last message of the thread the branch shares (0: none; the thread's message count: all)",
      example: 3,
    }),
    id: idSchema.optional(),
    metadata: z.record(z.string().max(256), z.unknown()).optional(),
  })
  .strict()
  .openapi('CreateBranch');

const createBranch = route.post('/v1/threads/{threadId}/branches', {
  summary: 'Branch a thread at one of its messages (its prefix shared by reference, not copied)',
  request: { params: threadParamsSchema, body: jsonBody(createBranchBodySchema) },
  responses: {
    201: json(threadViewSchema, 'The new branch: a thread whose `branchOf` names its source'),
    ...conflictError,
  },
});

const listBranches = route.get('/v1/threads/{threadId}/branches', {
  summary: "A thread's branches, oldest first (paged); with `atSeq`, only those made at that message",
  request: {
    params: threadParamsSchema,
    query: pageQuerySchema.extend({ atSeq: z.coerce.number().int().min(0).optional() }),
  },
  responses: { 200: json(pageOf(threadViewSchema, 'BranchPage'), 'A page of branches') },
});

/** The service's store branching, or a clear refusal when its store does not offer it. */
function branchingOf(c: { var: HttpEnv['Variables'] }) {
  const branching = threadBranching(c.var.service.stores.threadRuns);
  if (!branching)
    throw new AwakenError('invalid_config', "this server's thread store does not offer branches");
  return branching;
}

/**
 * `POST /v1/threads/:id/branches {atSeq}` → 201 with the branch; `GET /v1/threads/:id/branches`.
 * An unknown thread or a seq past its messages is 404; a taken `id` 409; a malformed body 400/422
 * naming the field. A run on the branch (`threadId` of the branch) sees the prefix and its own
 * messages as its history.
 */
export function registerBranchRoutes(app: OpenAPIHono<HttpEnv>): void {
  app.openapi(createBranch, async (c) => {
    const { threadId } = c.req.valid('param');
    const body = c.req.valid('json');
    await requireThread(c, threadId);
    const branch = await branchingOf(c).createBranch({
      threadId,
      atSeq: body.atSeq,
      ...(body.id ? { id: body.id } : {}),
      ...(body.metadata ? { metadata: body.metadata } : {}),
    });
    return c.json(branch, 201);
  });

  app.openapi(listBranches, async (c) => {
    const { threadId } = c.req.valid('param');
    await requireThread(c, threadId);
    const { atSeq, ...query } = c.req.valid('query');
    const page = await branchingOf(c).listBranches(threadId, {
      ...pageRequestOf(query),
      ...(atSeq === undefined ? {} : { atSeq }),
    });
    return c.json(page, 200);
  });
}
