/** The external API of a running service, as the benches call it: a JSON call that throws on any non-2xx answer. */
export const EXTERNAL_API = '/api/v1.0/external';

export interface ExternalApi {
  baseUrl: string;
  token: string;
}

export async function callApi<T>(api: ExternalApi, method: string, route: string, body?: unknown): Promise<T> {
  const response = await fetch(`${api.baseUrl}${EXTERNAL_API}${route}`, {
    method,
    headers: { authorization: `Bearer ${api.token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  if (!response.ok) throw new Error(`${method} ${route}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}
