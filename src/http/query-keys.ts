import type { FastifyInstance, FastifyRequest, RouteOptions } from 'fastify';

/**
 * Query parameter names are matched case-insensitively (the spec itself writes `taskid` on some
 * endpoints and `taskId` on others): each route's query keys are renamed to the spelling its
 * schema declares before validation. Repeated parameters stay arrays.
 */
export function installCaseInsensitiveQuery(app: FastifyInstance): void {
  app.addHook('onRoute', (route: RouteOptions) => {
    const shape = (route.schema?.querystring as { shape?: Record<string, unknown> } | undefined)?.shape;
    if (!shape) return;
    const canonical = new Map(Object.keys(shape).map((k) => [k.toLowerCase(), k]));
    const hook = async (request: FastifyRequest) => {
      const query = request.query as Record<string, unknown>;
      const renamed: Record<string, unknown> = {};
      for (const [key, value] of Object.entries(query)) {
        const name = canonical.get(key.toLowerCase()) ?? key;
        const previous = renamed[name];
        renamed[name] = previous === undefined ? value : ([] as unknown[]).concat(previous, value);
      }
      request.query = renamed;
    };
    const existing = route.preValidation;
    route.preValidation = existing ? [hook, ...(Array.isArray(existing) ? existing : [existing])] : [hook];
  });
}
