/** The external API of a running service, as the benches call it: a JSON call that throws on any non-2xx answer. */
export const EXTERNAL_API = '/api/v1.0/external';

export interface ExternalApi {
  baseUrl: string;
  token: string;
}

export async function callApi<T>(api: ExternalApi, method: string, route: string, body?: unknown): Promise<T> {
  const response = await retryingOverload(() =>
    fetch(`${api.baseUrl}${EXTERNAL_API}${route}`, {
      method,
      headers: { authorization: `Bearer ${api.token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    }),
  );
  if (!response.ok) throw new Error(`${method} ${route}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

/**
 * `request` again after the Retry-After of a 503 (the service sheds load while its event loop
 * lags, as on a machine shared with other work), as an integrator does; at most a few times.
 */
export async function retryingOverload(request: () => Promise<Response>, attempts = 10): Promise<Response> {
  for (let attempt = 1; ; attempt++) {
    const response = await request();
    if (response.status !== 503 || attempt >= attempts) return response;
    await response.body?.cancel();
    const wait = Math.min(Number(response.headers.get('retry-after')) || 1, 5);
    await new Promise((resolve) => setTimeout(resolve, wait * 1000));
  }
}
