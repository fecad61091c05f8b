/**
 * Fuzz requests for one operation: a skeleton that is valid by the operation's schema (presets and
 * hints fill in objects that exist), then one to three hostile changes (hostile-values.ts) to a
 * path parameter, a query parameter, a header, the credentials, one body field, the whole body, its
 * content type or the method. Requests stay in parts, so a failure report says what was changed.
 */
import fc from 'fast-check';
import {
  RawJson,
  encodeHostile,
  hostileHeaderValue,
  hostileJson,
  hostileUrlText,
  nastyStrings,
  toJsonText,
  withOwnKey,
} from './hostile-values.js';
import { HTTP_METHODS, SchemaValues, type FuzzOperation, type OpenApiDocument, type ValueHints } from './openapi-operations.js';

export type FuzzBody =
  | { json: unknown }
  | { text: string }
  /** A large body written out only when sent, so failure reports stay short. */
  | { repeat: string; times: number; before: string; after: string };

/** One request, kept as parts so a failure report says what was changed. */
export interface FuzzRequest {
  operation: string;
  method: string;
  /** URL text of each path parameter (already encoded, or raw junk). */
  pathValues: Record<string, string>;
  /** Raw text appended to the path. */
  pathSuffix: string;
  /** URL text of query keys and values; null: the key alone, without `=`. */
  query: Array<[string, string | null]>;
  headers: Record<string, string>;
  body?: FuzzBody;
  mutations: string[];
}

/** Parts of a valid request that must go together (a task id and its workspace, a signed link's path and signature). */
export interface RequestPreset {
  path?: Record<string, string | number>;
  query?: Record<string, string | number>;
  headers?: Record<string, string>;
  body?: FuzzBody;
}

export interface FuzzEnvironment {
  hints: ValueHints;
  presets: (op: FuzzOperation) => readonly RequestPreset[];
  /** Headers of a caller allowed to call `op` (its Authorization), empty for public routes. */
  credentials: (op: FuzzOperation) => Record<string, string>;
  /** Authorization headers to try instead: missing, broken, forged, expired, another organization's. */
  forgedCredentials: (op: FuzzOperation) => ReadonlyArray<{ label: string; headers: Record<string, string> }>;
}
// Valid skeletons.

function urlText(value: unknown): string {
  return encodeHostile(String(value));
}

/** A `*` parameter is a path of its own: its slashes stay. */
function pathText(name: string, value: unknown): string {
  return name === '*' ? String(value).split('/').map(encodeHostile).join('/') : urlText(value);
}

function skeleton(op: FuzzOperation, env: FuzzEnvironment, values: SchemaValues): fc.Arbitrary<FuzzRequest> {
  const presets = env.presets(op);
  const preset = presets.length ? fc.constantFrom(...presets) : fc.constant<RequestPreset>({});
  return preset.chain((p) => {
    const path: Record<string, fc.Arbitrary<string>> = {};
    for (const param of op.pathParams) {
      path[param.name] = p.path?.[param.name] !== undefined ? fc.constant(pathText(param.name, p.path[param.name])) : values.valid(param.schema, param.name).map((v) => pathText(param.name, v));
    }
    const query = op.queryParams.map((param) => {
      if (p.query?.[param.name] !== undefined) return fc.constant([String(p.query[param.name])]);
      const value = values.valid(param.schema, param.name).map((v) => (Array.isArray(v) ? v.map(String) : [String(v)]));
      return param.required ? value : fc.option(value, { nil: [] as string[], freq: 2 });
    });
    const body: fc.Arbitrary<FuzzBody | undefined> =
      p.body !== undefined ? fc.constant(p.body) : op.body ? values.valid(op.body.schema, 'body').map((json) => ({ json })) : fc.constant(undefined);
    return fc.record({ path: fc.record(path), query: fc.tuple(...query), body }).map(
      (parts): FuzzRequest => ({
        operation: op.key,
        method: op.method,
        pathValues: parts.path,
        pathSuffix: '',
        query: op.queryParams.flatMap((param, i) => (parts.query[i] ?? []).map((v): [string, string] => [urlText(param.name), urlText(v)])),
        headers: {
          ...env.credentials(op),
          ...(op.body && parts.body ? { 'content-type': op.body.contentType } : {}),
          ...p.headers,
        },
        ...(parts.body ? { body: parts.body } : {}),
        mutations: [],
      }),
    );
  });
}

// Mutations: each replaces one part of a request with something hostile.

type JsonPath = Array<string | number>;

function jsonPaths(value: unknown, prefix: JsonPath = [], out: JsonPath[] = []): JsonPath[] {
  if (out.length > 200 || value === null || typeof value !== 'object' || value instanceof RawJson) return out;
  const entries: Array<[string | number, unknown]> = Array.isArray(value) ? value.map((v, i) => [i, v]) : Object.entries(value);
  for (const [key, child] of entries) {
    out.push([...prefix, key]);
    jsonPaths(child, [...prefix, key], out);
  }
  return out;
}

function containerPaths(value: unknown, prefix: JsonPath = [], out: JsonPath[] = []): JsonPath[] {
  if (value !== null && typeof value === 'object' && !(value instanceof RawJson)) {
    if (!Array.isArray(value)) out.push(prefix);
    for (const [k, v] of Object.entries(value)) containerPaths(v, [...prefix, Array.isArray(value) ? Number(k) : k], out);
  }
  return out;
}

/** setAt's replacement that removes the member instead. */
const REMOVE = Symbol('remove');

/** A copy of `root` with the value at `path` replaced (or removed, for REMOVE); own `__proto__` keys stay data. */
function setAt(root: unknown, path: JsonPath, replacement: unknown): unknown {
  if (!path.length) return replacement;
  const [head, ...rest] = path;
  if (Array.isArray(root)) {
    const copy = [...root];
    if (replacement === REMOVE && !rest.length) copy.splice(Number(head), 1);
    else copy[Number(head)] = setAt(root[Number(head)], rest, replacement);
    return copy;
  }
  const source = root as Record<string, unknown>;
  if (replacement === REMOVE && !rest.length) {
    const copy: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(source)) if (k !== head) Object.defineProperty(copy, k, { value: v, enumerable: true, writable: true, configurable: true });
    return copy;
  }
  return withOwnKey(source, String(head), setAt(source[String(head)], rest, replacement));
}

function getAt(root: unknown, path: JsonPath): unknown {
  return path.reduce<unknown>((v, k) => (v as Record<string | number, unknown> | undefined)?.[k], root);
}

function label(path: JsonPath): string {
  return path.length ? path.join('.') : '(root)';
}

function shortText(value: string, max = 60): string {
  const shown = JSON.stringify(value.length > max ? `${value.slice(0, max)}…` : value);
  return value.length > max ? `${shown} (${value.length} chars)` : shown;
}

function describeValue(value: unknown): string {
  if (value instanceof RawJson) return `raw ${shortText(value.text)}`;
  if (typeof value === 'string') return shortText(value);
  const text = toJsonText(value);
  return text.length > 80 ? `${text.slice(0, 80)}… (${text.length} chars)` : text;
}

interface Mutation {
  name: string;
  weight: number;
  /** undefined when the mutation does not apply to this request. */
  apply: (req: FuzzRequest, op: FuzzOperation, env: FuzzEnvironment, values: SchemaValues) => fc.Arbitrary<FuzzRequest> | undefined;
}

const changed = (req: FuzzRequest, change: Partial<FuzzRequest>, note: string): FuzzRequest => ({ ...req, ...change, mutations: [...req.mutations, note] });

function withoutHeader(headers: Record<string, string>, name: string): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([k]) => k.toLowerCase() !== name.toLowerCase()));
}

const jsonBody = (req: FuzzRequest): unknown => (req.body && 'json' in req.body ? req.body.json : undefined);

/** Headers worth breaking on any route, beside the ones a request already carries. */
const HEADER_NAMES = [
  'x-request-id', 'accept', 'accept-language', 'x-http-method-override', 'x-forwarded-host', 'x-forwarded-proto', 'x-forwarded-for',
  'forwarded', 'content-encoding', 'origin', 'cookie', 'range', 'if-none-match', 'host', 'tus-resumable', 'upload-length',
  'upload-offset', 'upload-metadata', 'upload-defer-length', 'upload-concat',
];

/** Headers of the TUS extensions, with values the protocol defines: concatenation, deferred length. */
const TUS_EXTENSION_HEADERS: Array<[string, string]> = [
  ['upload-concat', 'partial'],
  ['upload-concat', 'final;/files/a /files/b'],
  ['upload-concat', 'final;'],
  ['upload-defer-length', '1'],
];

const CONTENT_TYPES = [
  'text/plain', 'application/xml', 'application/x-www-form-urlencoded', 'multipart/form-data', 'multipart/form-data; boundary=x',
  'application/json; charset=utf-16', 'application/json; charset=latin1', 'application/json;;', 'APPLICATION/JSON', 'application/json, text/plain',
  'application/offset+octet-stream', 'application/octet-stream', '*/*', 'application/problem+json', 'application/merge-patch+json', 'json', '',
];

const MALFORMED_BODIES = [
  '', ' ', '{', '[', '{"a":', '{"a":1}garbage', '\ufeff{}', 'NaN', "{'a':1}", '{"a":1,}', '[1,]', 'null', '0', '"text"', 'true', '/* c */{}',
  '\u0000', '{"\u0000":1}', '{"a":"\\ud800"}', '{"a":"\\u0000"}', '{"a":1,"a":2}', 'a=1&b=2', '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--x--',
];

const PATH_SUFFIXES = ['/', '//', '/.', '/..', '/%2e%2e', '%FF', '%', '/%00', '%00', '%2F', ';a=b', '/x', '.json', '%20', '/%ED%A0%80', '~', '/' + 'a'.repeat(600)];

const QUERY_JUNK: Array<[string, string | null]> = [
  ['a[b]', '1'], ['', 'x'], ['x', null], ['%', '%'], ['__proto__[polluted]', '1'], ['constructor[prototype][polluted]', '1'], ['%00', '%00'],
  ['a'.repeat(5000), '1'], ['x', 'a'.repeat(20_000)], ['%FF', '%FF'], ['taskId', ''], ['sort', '%00'],
];

const mutations: Mutation[] = [
  {
    name: 'path parameter',
    weight: 4,
    apply: (req, op) =>
      op.pathParams.length
        ? fc.tuple(fc.constantFrom(...op.pathParams.map((p) => p.name)), hostileUrlText()).map(([name, text]) =>
            changed(req, { pathValues: { ...req.pathValues, [name]: text } }, `path ${name} = ${shortText(text)}`),
          )
        : undefined,
  },
  {
    name: 'path suffix',
    weight: 1,
    apply: (req) => fc.constantFrom(...PATH_SUFFIXES).map((suffix) => changed(req, { pathSuffix: req.pathSuffix + suffix }, `path suffix ${shortText(suffix)}`)),
  },
  {
    name: 'query value',
    weight: 4,
    apply: (req, op) => {
      const names = [...new Set([...op.queryParams.map((p) => p.name), ...req.query.map(([k]) => k)])];
      if (!names.length) return undefined;
      return fc.tuple(fc.constantFrom(...names), hostileUrlText()).map(([name, text]) =>
        changed(req, { query: [...req.query.filter(([k]) => k.toLowerCase() !== name.toLowerCase()), [name, text]] }, `query ${name} = ${shortText(text)}`),
      );
    },
  },
  {
    name: 'query duplicate',
    weight: 2,
    apply: (req, op) => {
      const names = [...new Set([...op.queryParams.map((p) => p.name), ...req.query.map(([k]) => k)])];
      if (!names.length) return undefined;
      return fc
        .tuple(fc.constantFrom(...names), fc.constantFrom('same', 'upper', 'lower'), fc.oneof(hostileUrlText(), fc.constantFrom(...req.query.map(([, v]) => v ?? ''), '1')))
        .map(([name, spelling, text]) => {
          const key = spelling === 'upper' ? name.toUpperCase() : spelling === 'lower' ? name.toLowerCase() : name;
          const existing = req.query.find(([k]) => k === name) ?? [name, '1'];
          return changed(req, { query: [...req.query, ...(req.query.some(([k]) => k === name) ? [] : [existing]), [key, text]] }, `query ${key} repeated with ${shortText(text)}`);
        });
    },
  },
  {
    name: 'query junk',
    weight: 1,
    apply: (req) =>
      fc.oneof(
        fc.constantFrom(...QUERY_JUNK).map((pair) => changed(req, { query: [...req.query, pair] }, `query junk ${shortText(pair.join('='))}`)),
        fc.constantFrom(1_000, 5_000).map((n) =>
          changed(req, { query: [...req.query, ...Array.from({ length: n }, (_, i): [string, string] => [`p${i}`, '1'])] }, `${n} extra query parameters`),
        ),
      ),
  },
  {
    name: 'header',
    weight: 2,
    apply: (req, op) => {
      const names = [...new Set([...Object.keys(req.headers).filter((h) => h !== 'authorization'), ...op.headerParams.map((p) => p.name), ...HEADER_NAMES])];
      return fc.oneof(
        fc.tuple(fc.constantFrom(...names), hostileHeaderValue()).map(([name, value]) =>
          changed(req, { headers: { ...withoutHeader(req.headers, name), [name]: value } }, `header ${name}: ${shortText(value)}`),
        ),
        ...(Object.keys(req.headers).length
          ? [fc.constantFrom(...Object.keys(req.headers)).map((name) => changed(req, { headers: withoutHeader(req.headers, name) }, `header ${name} removed`))]
          : []),
      );
    },
  },
  {
    // Extensions a TUS client may ask for, offered or not: a refusal is a 4xx problem, never a 501.
    name: 'TUS extension header',
    weight: 1,
    apply: (req) =>
      Object.keys(req.headers).some((name) => name.toLowerCase() === 'tus-resumable')
        ? fc.constantFrom(...TUS_EXTENSION_HEADERS).map(([name, value]) => changed(req, { headers: { ...withoutHeader(req.headers, name), [name]: value } }, `header ${name}: ${shortText(value)}`))
        : undefined,
  },
  {
    name: 'credentials',
    weight: 2,
    apply: (req, op, env) => {
      const forged = env.forgedCredentials(op);
      if (!forged.length) return undefined;
      return fc.constantFrom(...forged).map((f) => changed(req, { headers: { ...withoutHeader(req.headers, 'authorization'), ...f.headers } }, `credentials: ${f.label}`));
    },
  },
  {
    name: 'body field',
    weight: 6,
    apply: (req) => {
      const paths = jsonPaths(jsonBody(req));
      if (!paths.length) return undefined;
      return fc.tuple(fc.constantFrom(...paths), hostileJson()).map(([path, value]) =>
        changed(req, { body: { json: setAt(jsonBody(req), path, value) } }, `body ${label(path)} = ${describeValue(value)}`),
      );
    },
  },
  {
    name: 'body field removed',
    weight: 2,
    apply: (req) => {
      const paths = jsonPaths(jsonBody(req));
      if (!paths.length) return undefined;
      return fc.constantFrom(...paths).map((path) => changed(req, { body: { json: setAt(jsonBody(req), path, REMOVE) } }, `body ${label(path)} removed`));
    },
  },
  {
    name: 'body extra key',
    weight: 1,
    apply: (req) => {
      const body = jsonBody(req);
      const paths = containerPaths(body);
      if (!paths.length) return undefined;
      return fc
        .tuple(fc.constantFrom(...paths), fc.oneof(fc.constantFrom('__proto__', 'constructor', 'extra', '', '\u0000', 'a'.repeat(300)), fc.constantFrom(...nastyStrings)), hostileJson())
        .map(([path, key, value]) => {
          const target = getAt(body, path) as Record<string, unknown>;
          return changed(req, { body: { json: setAt(body, path, withOwnKey(target, key, value)) } }, `body ${label(path)} gets key ${shortText(key)} = ${describeValue(value)}`);
        });
    },
  },
  {
    name: 'body root',
    weight: 1,
    apply: (req, op) =>
      op.body || req.body
        ? fc.oneof(
            hostileJson().map((json) => changed(req, { body: { json } }, `body = ${describeValue(json)}`)),
            fc.constant(changed(req, { body: { json: [jsonBody(req) ?? {}] } }, 'body wrapped in an array')),
          )
        : undefined,
  },
  {
    name: 'body text',
    weight: 1,
    apply: (req, op) => {
      const valid = req.body && 'json' in req.body ? toJsonText(req.body.json) : '{}';
      return fc.oneof(
        fc.constantFrom(...MALFORMED_BODIES).map((text) => changed(req, { body: { text } }, `body text ${shortText(text)}`)),
        fc.nat({ max: Math.max(valid.length - 1, 0) }).map((cut) => changed(req, { body: { text: valid.slice(0, cut) } }, `body cut at ${cut}`)),
        ...(op.body || req.body ? [] : [fc.constant(changed(req, { body: { json: { a: 1 } }, headers: { ...req.headers, 'content-type': 'application/json' } }, 'JSON body on a route without one'))]),
      );
    },
  },
  {
    name: 'huge body',
    weight: 1,
    apply: (req) =>
      fc.constantFrom(900_000, 1_100_000, 4_000_000).map((times) =>
        changed(req, { body: { repeat: 'a', times, before: '{"displayName":"', after: '"}' } }, `body of ${times} bytes`),
      ),
  },
  {
    name: 'content type',
    weight: 2,
    apply: (req) =>
      fc.oneof(
        fc.constantFrom(...CONTENT_TYPES).map((type) => changed(req, { headers: { ...withoutHeader(req.headers, 'content-type'), 'content-type': type } }, `content-type ${shortText(type)}`)),
        fc.constant(changed(req, { headers: withoutHeader(req.headers, 'content-type') }, 'content-type removed')),
      ),
  },
  {
    name: 'method',
    weight: 1,
    apply: (req) => fc.constantFrom(...HTTP_METHODS.map((m) => m.toUpperCase()).filter((m) => m !== req.method)).map((method) => changed(req, { method }, `method ${method}`)),
  },
];

function mutate(req: FuzzRequest, op: FuzzOperation, env: FuzzEnvironment, values: SchemaValues, times: number): fc.Arbitrary<FuzzRequest> {
  if (times === 0) return fc.constant(req);
  const applicable = mutations
    .map((m) => ({ weight: m.weight, arbitrary: m.apply(req, op, env, values) }))
    .filter((m): m is { weight: number; arbitrary: fc.Arbitrary<FuzzRequest> } => m.arbitrary !== undefined);
  return fc.oneof(...applicable).chain((next) => mutate(next, op, env, values, times - 1));
}

/** Valid requests to `op` as its schema and the environment's presets and hints describe them, unchanged. */
export function validRequests(doc: OpenApiDocument, op: FuzzOperation, env: FuzzEnvironment): fc.Arbitrary<FuzzRequest> {
  return skeleton(op, env, new SchemaValues(doc, env.hints)).map((req) =>
    Object.defineProperty(req, fc.toStringMethod, { value: () => describeRequest(op, req), enumerable: false }),
  );
}

/** Requests to `op`: a valid skeleton with zero (rarely) to three hostile changes. */
export function fuzzRequests(doc: OpenApiDocument, op: FuzzOperation, env: FuzzEnvironment): fc.Arbitrary<FuzzRequest> {
  const values = new SchemaValues(doc, env.hints);
  const times = fc.oneof({ weight: 1, arbitrary: fc.constant(0) }, { weight: 12, arbitrary: fc.constant(1) }, { weight: 4, arbitrary: fc.constant(2) }, { weight: 2, arbitrary: fc.constant(3) });
  return fc
    .tuple(skeleton(op, env, values), times)
    .chain(([req, n]) => mutate(req, op, env, values, n))
    .map((req) => Object.defineProperty(req, fc.toStringMethod, { value: () => describeRequest(op, req), enumerable: false }));
}

// The request as it is sent and reported.

export function urlOf(op: FuzzOperation, req: FuzzRequest): string {
  const path = op.path.replace(/\{([^}]+)\}/g, (_, name: string) => req.pathValues[name] ?? '') + req.pathSuffix;
  const query = req.query.map(([k, v]) => (v === null ? k : `${k}=${v}`)).join('&');
  return query ? `${path}?${query}` : path;
}

export function bodyText(body: FuzzBody | undefined): string | undefined {
  if (!body) return undefined;
  if ('json' in body) return toJsonText(body.json);
  if ('text' in body) return body.text;
  return body.before + body.repeat.repeat(body.times) + body.after;
}

function bodySummary(body: FuzzBody | undefined): string {
  if (!body) return '(none)';
  if ('repeat' in body) return `${shortText(body.before)} + ${shortText(body.repeat)} x ${body.times} + ${shortText(body.after)}`;
  const text = bodyText(body)!;
  return text.length > 400 ? `${JSON.stringify(text.slice(0, 400))}… (${text.length} chars)` : JSON.stringify(text);
}

/** What a failure report shows: enough to replay the request by hand. */
export function describeRequest(op: FuzzOperation, req: FuzzRequest): string {
  const url = urlOf(op, req);
  const headers = Object.entries(req.headers).map(([k, v]) => `${k}: ${v.length > 120 ? `${v.slice(0, 120)}… (${v.length} chars)` : v}`);
  return [
    `${req.method} ${url.length > 600 ? `${url.slice(0, 600)}… (${url.length} chars)` : url}`,
    ...headers.map((h) => `  ${h}`),
    `  body: ${bodySummary(req.body)}`,
    `  changes: ${req.mutations.join(' | ') || '(none: a valid request)'}`,
  ].join('\n');
}

