/**
 * Text read from a document made fit for Postgres. Postgres text and jsonb cannot hold U+0000,
 * and jsonb refuses a lone surrogate (half of a UTF-16 pair), so one such character in a PDF's
 * text layer (a glyph its font maps to code 0) would fail the whole statement that stores it.
 * The other C0 controls would be stored, but they are no text: they are what a text layer gives
 * for glyphs it cannot name, invisible in review and refused by XML. Tab, line feed and carriage
 * return are text and stay.
 *
 * Each goes as U+FFFD (the replacement character), one UTF-16 unit for one: spans (offset and
 * length into a page's text) stay right, and the text shows that a character was there.
 */
const UNSTORABLE = /[\u0000-\u0008\u000B\u000C\u000E-\u001F]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

export function storableText(text: string): string {
  return text.replace(UNSTORABLE, '\uFFFD');
}

function isPlainObject(value: object): value is Record<string, unknown> {
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/**
 * `value` with storableText applied to every string in it, object keys included, through plain
 * objects and arrays; anything else (numbers, dates, Prisma's null markers) is kept as it is.
 * Returns `value` itself when nothing had to change, so clean results cost no copy.
 */
export function storable<T>(value: T): T {
  if (typeof value === 'string') return storableText(value) as T;
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    value.forEach((item: unknown, index) => {
      const stored = storable(item);
      if (stored !== item) (copy ??= value.slice())[index] = stored;
    });
    return (copy ?? value) as T;
  }
  if (!isPlainObject(value)) return value;
  let copy: Record<string, unknown> | undefined;
  for (const [key, item] of Object.entries(value)) {
    const storedKey = storableText(key);
    const stored = storable(item);
    if (storedKey === key && stored === item) continue;
    copy ??= { ...value };
    if (storedKey !== key) delete copy[key];
    copy[storedKey] = stored;
  }
  return (copy ?? value) as T;
}

/**
 * JSON.stringify(storable(value)), made on the JSON text instead of the value: for a large result
 * (a text page's chunk is some 20,000 strings) one scan of the text costs a fraction of visiting
 * every string. JSON.stringify writes each C0 control as an escape (\u0000, \b, \f...) and each
 * lone surrogate as \udXXX (a surrogate in a pair stays as it is), so those escapes are all the
 * text holds of them; an escaped backslash is matched as a pair of its own, so that the text
 * `\u0000` (a backslash, then "u0000") is left alone.
 */
const UNSTORABLE_ESCAPE = /\\(?:u00(?:0[0-8bBcCeEfF]|1[0-9a-fA-F])|[bf]|u[dD][89a-fA-F][0-9a-fA-F]{2})|\\\\/g;

export function storableJson(value: unknown): string {
  return JSON.stringify(value).replace(UNSTORABLE_ESCAPE, (escape) => (escape === '\\\\' ? escape : '\uFFFD'));
}
