import { z } from 'zod';
import { nameOf, type NumericEnum } from '../domain/enums.js';

/** The RFC 7807 body every error response carries. */
export const problemSchema = z
  .object({
    type: z.string(),
    title: z.string(),
    status: z.number().int(),
    detail: z.string(),
    instance: z.string().nullable(),
    traceId: z.string(),
    errors: z.array(z.object({ field: z.string(), message: z.string() })).optional(),
  })
  .meta({ id: 'ProblemDetails', description: 'RFC 7807 problem details (application/problem+json)' });

/** Standard error responses a route documents beside its success response. */
export function problemResponses<S extends number>(...statuses: S[]): Record<S, typeof problemSchema> {
  return Object.fromEntries(statuses.map((s) => [s, problemSchema])) as Record<S, typeof problemSchema>;
}

/** An integer enum documented with every value's name (OpenAPI `enum` + `x-enumNames`). */
export function intEnum(name: string, enumeration: NumericEnum) {
  const values = Object.values(enumeration) as [number, ...number[]];
  const names = values.map((v) => nameOf(enumeration, v));
  return z.literal(values).meta({
    description: `${name}: ${values.map((v, i) => `${v} = ${names[i]}`).join(', ')}`,
    'x-enumNames': names,
  });
}

export function toIso(date: Date): string;
export function toIso(date: Date | null | undefined): string | null;
export function toIso(date: Date | null | undefined): string | null {
  return date ? date.toISOString() : null;
}

/** A query parameter that may be repeated (`x=1&x=2`); a single value becomes a one-item list. */
export function repeatable<T extends z.ZodType>(item: T) {
  return z
    .union([item, z.array(item)])
    .transform((v) => (Array.isArray(v) ? v : [v]) as z.output<T>[])
    .optional();
}

/** Integer query parameter (query strings arrive as text). */
export const queryInt = z.coerce.number().int();

/** Ids are int4 columns: larger numbers are a 400, never a database error. */
export const MAX_ROW_ID = 2_147_483_647;
/** A row id in a path or query. */
export const rowId = queryInt.positive().max(MAX_ROW_ID);

/** The same in a JSON body, where a number must be a number. */
export const bodyRowId = z.number().int().positive().max(MAX_ROW_ID);
