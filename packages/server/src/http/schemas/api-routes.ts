import { type RouteConfig, createRoute } from '@hono/zod-openapi';
import { commonErrors } from './common-schemas';

type Method = 'get' | 'post' | 'delete';

/** What differs from route to route: the rest (tags, the standard errors) comes from `apiRoutes`. */
type RouteSpec = Pick<RouteConfig, 'summary' | 'request' | 'responses'>;

/**
 * The route builders of one OpenAPI tag under `/v1`: `get`, `post` and `delete` each take a path
 * and the route's own request and responses, and add the error responses every authenticated route
 * may answer (`commonErrors`). A route that may conflict with the current state names `conflictError`.
 */
export function apiRoutes(tags: string[]) {
  const route =
    <M extends Method>(method: M) =>
    <P extends string, S extends RouteSpec>(path: P, spec: S) => {
      // typed by hand: a spread of a generic object would turn the numeric status keys into strings
      const responses = { ...spec.responses, ...commonErrors } as S['responses'] & typeof commonErrors;
      return createRoute({ method, path, tags, ...spec, responses });
    };
  return { get: route('get'), post: route('post'), delete: route('delete') };
}
