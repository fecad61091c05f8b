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
      // No prototype: a parameter named __proto__, constructor or sort must stay a plain entry,
      // neither replace the object's prototype nor find an inherited value to merge with.
      const renamed: Record<string, unknown> = Object.create(null);
      for (const [key, value] of Object.entries(query)) {
        const name = canonical.get(key.toLowerCase()) ?? key;
        renamed[name] = Object.hasOwn(renamed, name) ? ([] as unknown[]).concat(renamed[name], value) : value;
      }
      request.query = renamed;
    };
    const existing = route.preValidation;
    route.preValidation = existing ? [hook, ...(Array.isArray(existing) ? existing : [existing])] : [hook];
  });
}
