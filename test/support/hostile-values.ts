/**
 * Values a hostile or careless client sends: wrong types, numbers past every range the service
 * stores, strings Postgres or a URL parser chokes on, odd unicode, deep nesting. Used by the
 * OpenAPI fuzz suite (openapi-fuzz.ts) to replace one field of an otherwise valid request.
 */
import fc from 'fast-check';

/** A JSON literal written into a body as it is (numbers JSON.stringify cannot write, deep nesting). */
export class RawJson {
  constructor(readonly text: string) {}
}

/** JSON text of a value that may contain RawJson literals and own `__proto__` keys. */
export function toJsonText(value: unknown): string {
  if (value instanceof RawJson) return value.text;
  if (Array.isArray(value)) return `[${value.map((v) => (v === undefined ? 'null' : toJsonText(v))).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const members = Object.entries(value).filter(([, v]) => v !== undefined);
    return `{${members.map(([k, v]) => `${JSON.stringify(k)}:${toJsonText(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** An object with an own property of any name, `__proto__` included (plain assignment would set the prototype). */
export function withOwnKey(target: Record<string, unknown>, key: string, value: unknown): Record<string, unknown> {
  const copy = { ...target };
  Object.defineProperty(copy, key, { value, enumerable: true, configurable: true, writable: true });
  return copy;
}

const INT4_MAX = 2 ** 31 - 1;

/** Numbers at and past the edges of int4, int8, doubles and the safe integers. */
export const edgeNumbers: readonly number[] = [
  0, -0, -1, 1, 0.5, -0.5, 1.0000001, 1e-300, 5e-324,
  INT4_MAX, INT4_MAX + 1, -INT4_MAX - 1, -INT4_MAX - 2, 2 ** 32, 2 ** 32 + 1,
  2 ** 53 - 1, 2 ** 53, 2 ** 53 + 2, -(2 ** 53), 2 ** 63, 2 ** 64, 1e21, 1e100, 1.7976931348623157e308, -1.7976931348623157e308,
];

/** Number literals that only exist as JSON text: beyond doubles, beyond 2^53, odd spellings. */
export const rawNumberLiterals: readonly string[] = [
  '1e400', '-1e400', '9007199254740993', '123456789012345678901234567890', '-0.0', '1.0', '1E2', '2147483648.0', '0.1e-400',
  '1' + '0'.repeat(400), '0.' + '0'.repeat(400) + '1',
];

/** Number-like texts for query strings and path segments. */
export const numberTexts: readonly string[] = [
  '0', '-1', '1.5', '01', '+1', ' 1', '1 ', '1e3', '0x10', '0b1', '1_000', 'NaN', 'Infinity', '-Infinity', '',
  '2147483647', '2147483648', '-2147483649', '4294967296', '9007199254740991', '9007199254740993', '99999999999999999999999', '1e400',
];

/** Dates at the edges: year 0, before and after what JavaScript and Postgres hold, impossible days. */
export const dateTexts: readonly string[] = [
  '0000-01-01', '0000-01-01T00:00:00Z', '0001-01-01T00:00:00Z', '-000001-01-01T00:00:00Z', '+275760-09-13T00:00:00Z',
  '+275760-09-13T00:00:00.001Z', '9999-12-31T23:59:59.999999999+14:00', '294277-01-01', '4714-11-24 BC', '2024-02-30',
  '2025-13-01', '2025-01-01T24:00:00Z', '2025-01-01T23:59:60Z', '2025-01-01T00:00:00+99:99', '1970-01-01T00:00:00Z', '2025-01-01T00:00:00-00:00',
  '20250101', '2025-W01-1', '2025-001',
];

/** Strings that have broken services before: control bytes, odd unicode, injection and traversal attempts, URLs. */
export const nastyStrings: readonly string[] = [
  '', ' ', '\t', '\u0000', 'a\u0000b', '\u0001\u0002\u001f\u007f', '\r\n', 'line\r\nInjected: header',
  '\ud800', '\udfff', 'a\ud800b', '\udc00\ud800', '\u202e\u202dgnp.exe', '\u200b\u200c\u200d\u2060\ufeff', '\ufffe\uffff',
  '👩‍👩‍👧‍👦', '🏳️‍🌈'.repeat(50), 'e' + '\u0301'.repeat(500), 'Z̤͔ͧ̑̓ä͖̭̈̇lͮ̒ͫǧ̗͚̚o̙̔ͮ̇͐̇', 'ﷺ', 'ß', 'İ', 'ǅ', '\u00a0', '\u3000',
  '%00', '%FF', '%', '%%', '%u0000', '+', '&', '=', '#', '?', '/', '\\', '..', '../../../../etc/passwd', '..%2F..%2Fetc%2Fpasswd',
  "' OR '1'='1", '"; DROP TABLE "Task"; --', '$1', '\\x00', '${7*7}', '{{7*7}}', '<script>alert(1)</script>', '<!--',
  'null', 'undefined', 'true', 'NaN', '[]', '{}', '__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty',
  'http://169.254.169.254/latest/meta-data/', 'http://127.0.0.1:6379/', 'http://[::1]:5432/', 'http://0x7f000001/x.pdf',
  'http://2130706433/x.pdf', 'http://localhost/x.pdf', 'http://user:pass@10.0.0.1/x.pdf', 'file:///etc/passwd', 'gopher://127.0.0.1:6379/_INFO',
  'javascript:alert(1)', 'data:application/pdf;base64,JVBERi0=', 'http://example.invalid/x.pdf', 'http://', 'http:///x', '//evil.test/x',
  'application/pdf', 'text/html', 'Administrator', 'Reviewer', 'client_credentials', 'WebAPI',
  ...dateTexts,
];

/** A long string of one repeated unit (lengths around the limits the schemas set, and far past them). */
function longString(): fc.Arbitrary<string> {
  return fc
    .tuple(fc.constantFrom('a', '\u0000', 'é', '😀', '\ud800', ' ', '%', '/'), fc.constantFrom(129, 257, 2049, 4097, 20_001, 100_000))
    .map(([unit, length]) => unit.repeat(length));
}

/** Hostile strings: the catalog above, random code points (lone surrogates and controls included), long repeats. */
export function hostileString(): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(...nastyStrings) },
    { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
    { weight: 2, arbitrary: fc.string({ unit: fc.constantFrom('\u0000', '\ud800', '\u202e', '\u200b', 'a', '/', '%', '\\', '"', "'"), minLength: 1, maxLength: 12 }) },
    { weight: 1, arbitrary: longString() },
    { weight: 1, arbitrary: fc.constantFrom(...numberTexts) },
  );
}

/** Hostile numbers: edges, random doubles and integers, and literals only JSON text can carry. */
export function hostileNumber(): fc.Arbitrary<number | RawJson> {
  return fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...edgeNumbers) },
    { weight: 2, arbitrary: fc.double({ noNaN: true, noDefaultInfinity: true }) },
    { weight: 2, arbitrary: fc.integer({ min: -(2 ** 31) - 10, max: 2 ** 31 + 10 }) },
    { weight: 2, arbitrary: fc.constantFrom(...rawNumberLiterals).map((text) => new RawJson(text)) },
  );
}

/** Arrays or objects nested far deeper than any schema of the API. */
export function deepNesting(): fc.Arbitrary<RawJson> {
  return fc
    .tuple(fc.constantFrom('[', '{"a":'), fc.constantFrom(64, 1_000, 20_000))
    .map(([open, depth]) => new RawJson(`${open.repeat(depth)}1${(open === '[' ? ']' : '}').repeat(depth)}`));
}

/** Any JSON value of the wrong shape: other types, empty and huge containers, prototype keys, deep nesting. */
export function hostileJson(): fc.Arbitrary<unknown> {
  const scalar = fc.oneof(hostileString(), hostileNumber(), fc.boolean(), fc.constant(null));
  return fc.oneof(
    { weight: 5, arbitrary: hostileString() },
    { weight: 5, arbitrary: hostileNumber() },
    { weight: 1, arbitrary: fc.boolean() },
    { weight: 1, arbitrary: fc.constant(null) },
    { weight: 2, arbitrary: fc.array(scalar, { maxLength: 3 }) },
    { weight: 1, arbitrary: fc.constantFrom([], {}, [[]], [{}], { '': null }) },
    { weight: 1, arbitrary: fc.constantFrom(1_001, 10_001).map((n) => Array.from({ length: n }, (_, i) => i)) },
    { weight: 1, arbitrary: fc.dictionary(hostileString(), scalar, { maxKeys: 3 }) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.constantFrom('__proto__', 'constructor', 'prototype'), scalar)
        .map(([key, value]) => withOwnKey({}, key, key === 'constructor' ? { prototype: { polluted: value } } : { polluted: value })),
    },
    { weight: 1, arbitrary: deepNesting() },
  );
}

/** URL-encoded text (query values and path segments) from a hostile string, or raw bytes no encoder would write. */
export function hostileUrlText(): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 4, arbitrary: hostileString().map(encodeHostile) },
    {
      weight: 2,
      arbitrary: fc.constantFrom(
        '%', '%F', '%FF', '%00', '%C0%AE', '%ED%A0%80', '%E2%80%AE', '%2F', '%2e%2e', '..', '.', '%u0041', '+', '%20', '%0D%0A',
        ';', ',', '*', '~', "'", '%25', '%%30', '1%00', '1;x', '1,2', '1/2', '1%2F2', '[]', '[0]', '%5B%5D',
      ),
    },
    { weight: 2, arbitrary: fc.constantFrom(...numberTexts).map(encodeURIComponent) },
    { weight: 1, arbitrary: fc.constantFrom(...dateTexts).map(encodeURIComponent) },
  );
}

/** URL-encoded text that never throws (encodeURIComponent does on lone surrogates: they become the invalid UTF-8 a raw client could send). */
export function encodeHostile(text: string): string {
  try {
    return encodeURIComponent(text);
  } catch {
    return [...text].map((ch) => (/[\ud800-\udfff]/.test(ch) ? '%ED%A0%80' : encodeURIComponent(ch))).join('');
  }
}

/**
 * Header values a real HTTP parser lets through (no CR, LF or NUL): visible ASCII, obs-text bytes
 * (latin-1), long values, number and date edge cases.
 */
export function hostileHeaderValue(): fc.Arbitrary<string> {
  const printable = (s: string) => s.replace(/[^\t\x20-\x7e\x80-\xff]/g, '?');
  return fc.oneof(
    { weight: 4, arbitrary: hostileString().map((s) => printable(s).slice(0, 8_000)) },
    { weight: 1, arbitrary: fc.string({ unit: fc.constantFrom('\xff', '\xe9', '\x80', ' ', '\t', '"', ',', ';', '=', '/'), maxLength: 30 }) },
    { weight: 1, arbitrary: fc.constantFrom('x'.repeat(8_000), ' '.repeat(100), ', , ,', 'a=b; c="d', '1, 2', '-1', '99999999999999999999') },
  );
}
