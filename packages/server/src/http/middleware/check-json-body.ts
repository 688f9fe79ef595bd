import type { Context, MiddlewareHandler } from 'hono';
import type { HttpEnv } from '../http-types';

const JSON_TYPE = /^application\/([\w.-]+\+)?json\b/i;

/** Where a JSON value nests too deep: the body's top-level field (`''` for the root) and the limit. */
export interface DeepJson {
  field: string;
  maxDepth: number;
}

/**
 * Finds the first place where `value` (parsed JSON) nests arrays and objects deeper than `maxDepth`
 * levels, counted from the body itself. Iterative, with its own stack: a body nested 100,000 deep is
 * reported, never a stack overflow — the recursive checks after it (zod, the stores' JSON checks)
 * only ever see a value they can walk.
 */
export function findDeepJson(value: unknown, maxDepth: number): DeepJson | undefined {
  const stack: Array<{ value: unknown; depth: number; field: string }> = [{ value, depth: 0, field: '' }];
  for (let next = stack.pop(); next; next = stack.pop()) {
    const current = next.value;
    if (current === null || typeof current !== 'object') continue;
    const depth = next.depth + 1;
    if (depth > maxDepth) return { field: next.field, maxDepth };
    const entries = Array.isArray(current) ? current.entries() : Object.entries(current);
    for (const [key, item] of entries) {
      if (item !== null && typeof item === 'object') {
        stack.push({ value: item, depth, field: next.depth === 0 ? String(key) : next.field });
      }
    }
  }
  return undefined;
}

/**
 * Refuses (422, naming the field) a JSON body nested deeper than `maxDepth`, before any route's
 * validation walks it. The body is parsed here once (Hono caches it for the route); a body that does
 * not parse is left to the route's validator (400), and one over the size limit never gets here.
 */
export function checkJsonBody(
  maxDepth: number,
  onTooDeep: (c: Context<HttpEnv>, deep: DeepJson) => Response | Promise<Response>,
): MiddlewareHandler<HttpEnv> {
  return async (c, next) => {
    if (c.req.method === 'GET' || c.req.method === 'HEAD') return next();
    if (!JSON_TYPE.test(c.req.header('content-type') ?? '')) return next();
    let body: unknown;
    try {
      body = await c.req.json();
    } catch {
      return next();
    }
    const deep = findDeepJson(body, maxDepth);
    if (deep) return onTooDeep(c, deep);
    return next();
  };
}
