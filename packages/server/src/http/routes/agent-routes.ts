import type { OpenAPIHono } from '@hono/zod-openapi';
import { z } from '@hono/zod-openapi';
import type { HttpEnv } from '../http-types';
import { apiRoutes } from '../schemas/api-routes';
import { json } from '../schemas/common-schemas';

const route = apiRoutes(['Agents']);

const agentListSchema = z
  .object({
    items: z.array(z.object({ id: z.string() }).openapi('Agent')),
    defaultAgentId: z
      .string()
      .optional()
      .openapi({ description: 'The agent the AI SDK and AG-UI routes without an agent id talk to' }),
  })
  .openapi('AgentList');

const listAgents = route.get('/v1/agents', {
  summary: "The agents the caller's tenant runs (what a chat may talk to)",
  responses: { 200: json(agentListSchema, 'The agents, in the order the service was given them') },
});

/**
 * `GET /v1/agents`: the ids of the agents the tenant's service runs and the default agent of the
 * chat routes — how a console learns whether to offer an agent picker. Scope `read`.
 */
export function registerAgentRoutes(app: OpenAPIHono<HttpEnv>, options: { defaultAgentId?: string }): void {
  app.openapi(listAgents, (c) => {
    const ids = c.var.service.agentIds;
    const fallback = options.defaultAgentId;
    return c.json(
      {
        items: ids.map((id) => ({ id })),
        ...(fallback && ids.includes(fallback) ? { defaultAgentId: fallback } : {}),
      },
      200,
    );
  });
}
