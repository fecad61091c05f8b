const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text (organization names, emails, error details) placed inside HTML text or a quoted attribute. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ENTITIES[c]!);
}

/** How much an Accept header wants a media type: the quality of the most specific range naming it (RFC 9110, 12.5.1). */
interface Preference {
  quality: number;
  /** 2 for an exact type/subtype, 1 for a subtype wildcard, 0 for the any-type wildcard, -1 when no range names it. */
  specificity: number;
}

function preferenceFor(accept: string, mediaType: string): Preference {
  const [type, subtype] = mediaType.split('/');
  let best: Preference = { quality: 0, specificity: -1 };
  for (const range of accept.split(',')) {
    const [name = '', ...params] = range.split(';').map((part) => part.trim().toLowerCase());
    const [rangeType, rangeSubtype] = name.split('/');
    const specificity = rangeType === type && rangeSubtype === subtype ? 2 : rangeType === type && rangeSubtype === '*' ? 1 : name === '*/*' ? 0 : -1;
    if (specificity <= best.specificity) continue;
    const q = params.find((param) => param.startsWith('q='));
    const quality = q === undefined ? 1 : Number(q.slice(2));
    // A malformed quality makes the range unusable, not the whole header.
    if (Number.isFinite(quality) && quality >= 0 && quality <= 1) best = { quality, specificity };
  }
  return best;
}

const JSON_TYPES = ['application/json', 'application/problem+json'];

/**
 * Whether a request for a page meant for browsers would rather have a JSON problem body. A JSON
 * type must be preferred outright: a higher quality, or the same one from a more specific range
 * (an API client sends application/json and a wildcard, a browser text/html and a wildcard of
 * lower quality). No Accept header, only the wildcard, or a tie: the page.
 */
export function prefersJson(accept: string | undefined): boolean {
  if (!accept) return false;
  const html = preferenceFor(accept, 'text/html');
  return JSON_TYPES.some((type) => {
    const json = preferenceFor(accept, type);
    if (json.quality === 0) return false;
    return json.quality > html.quality || (json.quality === html.quality && json.specificity > html.specificity);
  });
}
