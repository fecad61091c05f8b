import { z } from 'zod';
import { BadRequestError } from './problem.js';

/**
 * The dates a query may name: Postgres `timestamp` has no year 0 and JS Date ends in year
 * 275760, so outside a sane window a date would fail in the database (22008) instead of being
 * a 400. Nothing this service stores predates 1970.
 */
export const MIN_QUERY_DATE = new Date('1970-01-01T00:00:00Z');
export const MAX_QUERY_DATE = new Date('9999-12-31T23:59:59.999Z');
const DATE_RANGE_TEXT = 'between 1970-01-01 and 9999-12-31 (UTC)';

/** Datetime query input: ISO 8601; without an offset it is UTC (DESIGN.md section 4). */
export const utcDateTime = z
  .string()
  .trim()
  .refine((s) => /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?)?(Z|[+-]\d{2}:?\d{2})?$/i.test(s), 'expected an ISO 8601 date or datetime')
  .transform((s, ctx) => {
    const text = s.replace(' ', 'T');
    const hasOffset = /(Z|[+-]\d{2}:?\d{2})$/i.test(text);
    const withTime = text.length === 10 ? `${text}T00:00:00` : text;
    const date = new Date(hasOffset ? withTime : `${withTime}Z`);
    if (Number.isNaN(date.getTime())) {
      ctx.addIssue({ code: 'custom', message: 'not a valid date' });
      return z.NEVER;
    }
    if (date < MIN_QUERY_DATE || date > MAX_QUERY_DATE) {
      ctx.addIssue({ code: 'custom', message: `must be ${DATE_RANGE_TEXT}` });
      return z.NEVER;
    }
    return date;
  })
  .meta({ type: 'string', format: 'date-time', description: `ISO 8601; UTC when no offset is given; ${DATE_RANGE_TEXT}` });

export const MAX_PAGE_SIZE = 500;

export const paginationQuery = {
  pageNumber: z.coerce.number().int().min(1).default(1).describe('Page to return, from 1'),
  pageSize: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(10).describe(`Items per page, 1..${MAX_PAGE_SIZE}`),
};

/** Both list families require a date window (the spec's rejection when neither is given). */
export function requireDateWindow(query: { startDate?: Date; endDate?: Date }): void {
  if (!query.startDate && !query.endDate) {
    throw new BadRequestError('startDate or endDate is required', {
      title: 'ValidationError',
      errors: [{ field: 'startDate', message: 'startDate or endDate is required' }],
    });
  }
}

export interface SortSpec<F extends string> {
  field: F;
  descending: boolean;
}

/** `sort=name` or `sort=-name` over a fixed set of response property names; anything else is 400. */
export function sortParam<F extends string>(fields: readonly [F, ...F[]], fallback: F) {
  const names = new Map(fields.map((f) => [f.toLowerCase(), f]));
  return z
    .string()
    .trim()
    .optional()
    .transform((raw, ctx): SortSpec<F> => {
      if (!raw) return { field: fallback, descending: false };
      const descending = raw.startsWith('-');
      const field = names.get(raw.replace(/^[-+]/, '').toLowerCase());
      if (!field) {
        ctx.addIssue({ code: 'custom', message: `unknown sort; use one of ${fields.join(', ')}, optionally prefixed with -` });
        return z.NEVER;
      }
      return { field, descending };
    })
    .meta({ type: 'string', description: `One of ${fields.join(', ')}; prefix with - for descending. Default ${fallback} ascending.` });
}

export interface Page<T> {
  items: T[];
  pageNumber: number;
  totalPages: number;
  totalCount: number;
  hasPreviousPage: boolean;
  hasNextPage: boolean;
}

export function toPage<T>(items: T[], totalCount: number, pageNumber: number, pageSize: number): Page<T> {
  const totalPages = Math.ceil(totalCount / pageSize);
  return {
    items,
    pageNumber,
    totalPages,
    totalCount,
    hasPreviousPage: pageNumber > 1,
    hasNextPage: pageNumber < totalPages,
  };
}

export function pageSchema<T extends z.ZodType>(item: T, id: string) {
  return z
    .object({
      items: z.array(item),
      pageNumber: z.number().int(),
      totalPages: z.number().int(),
      totalCount: z.number().int(),
      hasPreviousPage: z.boolean(),
      hasNextPage: z.boolean(),
    })
    .meta({ id });
}
