/**
 * The operations of the app's OpenAPI document, and valid values for their parameters and bodies
 * generated from the document's schemas (preferring known values, such as ids of objects that
 * exist, for fields of a given name).
 */
import fc from 'fast-check';

/** The JSON Schema subset @fastify/swagger writes for zod schemas. */
export type Schema = { [keyword: string]: any };

export interface OpenApiDocument {
  paths: Record<string, Record<string, { parameters?: Array<{ in: string; name: string; required?: boolean; schema?: Schema }>; requestBody?: { content: Record<string, { schema: Schema }> } }>>;
  components?: { schemas?: Record<string, Schema> };
}

export interface FuzzParam {
  name: string;
  schema: Schema;
  required: boolean;
}

export interface FuzzOperation {
  /** `METHOD /path/{param}` as in the OpenAPI document. */
  key: string;
  method: string;
  path: string;
  pathParams: FuzzParam[];
  queryParams: FuzzParam[];
  headerParams: FuzzParam[];
  body?: { contentType: string; schema: Schema };
}


/** Values of a field by its name (anywhere: path, query, body), such as the ids of objects that exist. */
export type ValueHints = (name: string) => readonly unknown[] | undefined;

export const HTTP_METHODS = ['get', 'head', 'post', 'put', 'patch', 'delete', 'options'];

/** OpenAPI writes `{param}` and `{*}` where Fastify writes `:param` and `*`. */
export function openApiPath(fastifyUrl: string): string {
  return fastifyUrl.replace(/:(\w+)/g, '{$1}').replace(/\*/g, '{*}');
}

/**
 * Every operation of the document, plus a HEAD operation for each HEAD route of `catalog`
 * (`METHOD /url` lines, app.routeCatalog) that the document leaves out, shaped like the
 * documented operation of the same path.
 */
export function fuzzOperations(doc: OpenApiDocument, catalog: readonly string[] = []): FuzzOperation[] {
  const operations: FuzzOperation[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      if (!HTTP_METHODS.includes(method)) continue;
      const params = op.parameters ?? [];
      const pick = (where: string) =>
        params.filter((p) => p.in === where).map((p) => ({ name: p.name, schema: p.schema ?? {}, required: p.required === true }));
      const content = op.requestBody?.content ?? {};
      const contentType = Object.keys(content)[0];
      operations.push({
        key: `${method.toUpperCase()} ${path}`,
        method: method.toUpperCase(),
        path,
        pathParams: pick('path'),
        queryParams: pick('query'),
        headerParams: pick('header'),
        ...(contentType ? { body: { contentType, schema: content[contentType]!.schema } } : {}),
      });
    }
  }
  const documented = new Set(operations.map((o) => o.key));
  for (const route of catalog) {
    const [method, url] = route.split(' ') as [string, string];
    const path = openApiPath(url);
    if (method !== 'HEAD' || documented.has(`HEAD ${path}`)) continue;
    const twin = operations.find((o) => o.path === path && o.method === 'GET') ?? operations.find((o) => o.path === path);
    if (!twin) continue;
    operations.push({ ...twin, key: `HEAD ${path}`, method: 'HEAD', body: undefined });
    documented.add(`HEAD ${path}`);
  }
  return operations;
}

// Valid values from schemas.

const MAX_DEPTH = 8;
const safeChars = fc.constantFrom(...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_'.split(''));

export class SchemaValues {
  constructor(
    private readonly doc: OpenApiDocument,
    private readonly hints: ValueHints,
  ) {}

  resolve(schema: Schema): Schema {
    let current = schema;
    for (let i = 0; current?.$ref && i < 20; i += 1) {
      const name = String(current.$ref).replace('#/components/schemas/', '');
      current = this.doc.components?.schemas?.[name] ?? {};
    }
    return current ?? {};
  }

  /** A valid value of `schema`, preferring the hinted values of a field called `name`. */
  valid(schema: Schema, name: string, depth = 0): fc.Arbitrary<unknown> {
    const generated = this.fromSchema(this.resolve(schema), name, depth);
    const known = this.hints(name) ?? this.hints(name.toLowerCase());
    return known?.length ? fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...known) }, { weight: 1, arbitrary: generated }) : generated;
  }

  private fromSchema(s: Schema, name: string, depth: number): fc.Arbitrary<unknown> {
    if (depth > MAX_DEPTH) return fc.constant(null);
    if (s.const !== undefined) return fc.constant(s.const);
    if (Array.isArray(s.enum) && s.enum.length) return fc.constantFrom(...s.enum);
    const branches: Schema[] | undefined = s.anyOf ?? s.oneOf;
    if (branches?.length) {
      const concrete = branches.map((b) => this.resolve(b)).filter((b) => b.type !== 'null');
      const choices = (concrete.length ? concrete : branches).map((b) => this.valid(b, name, depth + 1));
      return fc.oneof(...choices);
    }
    const type = Array.isArray(s.type) ? (s.type.find((t: string) => t !== 'null') ?? 'null') : s.type;
    switch (type) {
      case 'string':
        return this.string(s);
      case 'integer': {
        const min = s.exclusiveMinimum !== undefined ? s.exclusiveMinimum + 1 : (s.minimum ?? 0);
        const max = Math.min(s.maximum ?? min + 1000, Math.max(min, 0) + 1000);
        return fc.integer({ min: Math.max(min, -1000), max: Math.max(max, min) });
      }
      case 'number': {
        const min = s.minimum ?? 0;
        const max = Math.min(s.maximum ?? min + 1000, min + 1000);
        return fc.double({ min, max, noNaN: true, noDefaultInfinity: true });
      }
      case 'boolean':
        return fc.boolean();
      case 'null':
        return fc.constant(null);
      case 'array': {
        const minLength = s.minItems ?? 0;
        const maxLength = Math.max(minLength, Math.min(s.maxItems ?? 3, 3));
        return fc.array(this.valid(s.items ?? {}, name, depth + 1), { minLength, maxLength });
      }
      case 'object':
        return this.object(s, depth);
      default:
        return s.properties ? this.object(s, depth) : fc.constant('x');
    }
  }

  private string(s: Schema): fc.Arbitrary<string> {
    if (s.format === 'email') return fc.stringMatching(/^[a-z]{1,10}@example\.com$/);
    if (s.format === 'date-time') return fc.date({ min: new Date('2000-01-01'), max: new Date('2030-01-01'), noInvalidDate: true }).map((d) => d.toISOString());
    if (s.format === 'uuid') return fc.uuid();
    const minLength = Math.max(s.minLength ?? 0, 1);
    const maxLength = Math.max(minLength, Math.min(s.maxLength ?? 16, 16));
    const plain = fc.string({ unit: safeChars, minLength, maxLength });
    if (!s.pattern) return plain;
    try {
      return fc.stringMatching(new RegExp(s.pattern)).filter((v) => v.length >= (s.minLength ?? 0) && v.length <= (s.maxLength ?? Infinity));
    } catch {
      return plain;
    }
  }

  /** Required properties always, each optional one now and then: most skeletons stay valid across fields that exclude each other. */
  private object(s: Schema, depth: number): fc.Arbitrary<unknown> {
    const properties: Record<string, Schema> = s.properties ?? {};
    const required = new Set<string>(s.required ?? []);
    const fields: Record<string, fc.Arbitrary<unknown>> = {};
    for (const [key, schema] of Object.entries(properties)) {
      const value = this.valid(schema, key, depth + 1);
      // Hinted fields (ids of objects that exist, credentials) are usually wanted; other optional ones rarely.
      const [absent, present] = this.hints(key) ? [1, 3] : [5, 1];
      fields[key] = required.has(key) ? value : fc.oneof({ weight: absent, arbitrary: fc.constant(undefined) }, { weight: present, arbitrary: value });
    }
    const extra = s.additionalProperties;
    if (extra && typeof extra === 'object' && !Object.keys(properties).length) {
      // A map such as metadata: a few entries with valid keys.
      const key = s.propertyNames ? (this.fromSchema(this.resolve(s.propertyNames), 'key', depth + 1) as fc.Arbitrary<string>) : fc.string({ unit: safeChars, minLength: 1, maxLength: 8 });
      return fc.dictionary(key, this.valid(extra, 'value', depth + 1), { maxKeys: 3 });
    }
    return fc.record(fields).map((record) => Object.fromEntries(Object.entries(record).filter(([, v]) => v !== undefined)));
  }
}

