// The reviewer API (/api/v1.0/review, see /docs) and the session's token.
export const API = '/api/v1.0/review';

export const session = {
  get token() { return sessionStorage.getItem('review.token'); },
  get email() { return sessionStorage.getItem('review.email'); },
  start(token, email) { sessionStorage.setItem('review.token', token); sessionStorage.setItem('review.email', email); },
  end() { sessionStorage.clear(); },
};

export class ApiError extends Error {
  constructor(problem) {
    super(problem.detail ?? problem.title ?? 'Request failed');
    this.problem = problem;
  }
}

/** Called when the token is refused: the page logs out. */
let onSessionEnded = () => {};
export function whenSessionEnds(handler) {
  onSessionEnded = handler;
}

/** A call of the reviewer API: JSON in, JSON (or an image) out; a problem body becomes an ApiError. */
export async function api(method, path, body) {
  const headers = session.token ? { authorization: `Bearer ${session.token}` } : {};
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(path.startsWith('/') ? path : `${API}/${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  if (res.status === 401 && session.token) {
    onSessionEnded('Your session has ended: log in again.');
    throw new ApiError({ detail: 'Not logged in' });
  }
  const type = res.headers.get('content-type') ?? '';
  if (!res.ok) throw new ApiError(type.includes('json') ? await res.json() : { detail: `${res.status} ${res.statusText}` });
  return type.includes('json') ? res.json() : res.blob();
}
