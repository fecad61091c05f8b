/**
 * An access token asked of a running service over real HTTP (for tests of spawned processes and for
 * the benchmarks; no vitest import, so bench processes may load it). In-process tests use
 * requestToken in context.ts, which goes through app.inject.
 */
export async function fetchToken(baseUrl: string, clientId: string, clientSecret: string): Promise<string> {
  const response = await fetch(`${baseUrl}/connect/token`, {
    method: 'POST',
    body: new URLSearchParams({ grant_type: 'client_credentials', scope: 'WebAPI', client_id: clientId, client_secret: clientSecret }),
  });
  if (!response.ok) throw new Error(`token request failed: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { access_token: string }).access_token;
}
