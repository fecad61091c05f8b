import { z } from 'zod';
import { paginationQuery, pageSchema } from '../../http/list-query.js';
import { rowId } from '../../http/schemas.js';
import { isoDateTime } from '../../domain/date-time.js';
import { INVOICE_FIELDS } from '../../models/fields/invoice-field-names.js';

/**
 * Vendor profiles (extension routes beside the spec): the stored evidence of each field, as the
 * models read it (src/models/vendor-profiles/vendor-profile.ts, FieldEvidence), and the public
 * shape of a profile.
 */

const box = z.object({ left: z.number(), top: z.number(), width: z.number(), height: z.number() });

const valueKind = z.enum(['identifier', 'taxId', 'iban', 'date', 'amount', 'name', 'currency']);

/** One field's stored evidence: read back with this schema, so that a row written by another version is used only where it still fits. */
export const storedFieldEvidence = z.object({
  kind: valueKind,
  value: z.string(),
  content: z.string(),
  shape: z.string().optional(),
  monthFirst: z.boolean().optional(),
  chunk: z.number().int().min(1),
  lastPage: z.boolean(),
  region: box.optional(),
  label: z
    .object({
      text: z.string(),
      key: z.string().min(1),
      place: z.enum(['inline', 'left', 'above']),
      dx: z.number(),
      dy: z.number(),
      dxRight: z.number(),
      width: z.number(),
      height: z.number(),
      region: box,
    })
    .optional(),
  corrected: z.boolean(),
  taskId: z.number().int(),
  learnedOn: z.string(),
  confirmations: z.number().int().min(0),
  corrections: z.number().int().min(0),
  weight: z.number().min(0).max(1),
});

export const invoiceFieldName = z.enum(INVOICE_FIELDS);

export const workspaceParams = z.object({ workspaceId: rowId });
export const profileParams = z.object({ profileId: rowId });
export const profileFieldParams = z.object({ profileId: rowId, field: invoiceFieldName });
export const profileListQuery = z.object({ ...paginationQuery });
export type ProfileListQuery = z.infer<typeof profileListQuery>;

const fieldResponse = z
  .object({
    field: invoiceFieldName,
    value: z.string().describe('The value as the latest review left it (normalised)'),
    label: z.string().nullable().describe('The text that announces the value on the page; null when none does'),
    place: z.enum(['inline', 'left', 'above']).nullable().describe('Where the value stands relative to its label: after it on its line, in the next column, under it'),
    located: z.boolean().describe('The review found the value on its page (its region and place are known)'),
    page: z.number().int().describe('The page (chunk number) the value was learned on'),
    region: box.nullable().describe("Where the value is printed, as shares (0..1) of the page's text frame from its top-left; null when not located"),
    labelRegion: box.nullable().describe("Where its label is printed, as shares of the page's text frame; null when no label announces it"),
    format: z.string().nullable().describe('Identifiers: the shape of the value (A = letters, 9 = digits); dates: day-first or month-first'),
    corrected: z.boolean().describe('The latest review corrected the value (else confirmed it)'),
    confirmations: z.number().int(),
    corrections: z.number().int(),
    weight: z.number().describe('0..1: halved by each correction of a value the profile gave; below 0.3 the field is left to the general model'),
    learnedFromTaskId: z.number().int(),
    learnedOn: isoDateTime,
  })
  .meta({ id: 'VendorProfileField' });
export type VendorProfileFieldResponse = z.infer<typeof fieldResponse>;

export const vendorProfileResponse = z
  .object({
    profileId: z.number().int(),
    workspaceId: z.number().int(),
    vendorName: z.string().nullable(),
    taxIds: z.array(z.string()),
    ibans: z.array(z.string()),
    reviewCount: z.number().int().describe('Completed reviews it learned from'),
    correctedReviewCount: z.number().int().describe('Reviews that corrected a value it had given'),
    weight: z.number().describe('0..1: the mean of its fields\' weights'),
    lastTaskId: z.number().int().nullable().describe('The task of the latest review it learned from'),
    fields: z.array(fieldResponse),
    createdOn: isoDateTime,
    updatedOn: isoDateTime,
  })
  .meta({ id: 'VendorProfile' });
export type VendorProfileResponse = z.infer<typeof vendorProfileResponse>;

export const vendorProfilePage = pageSchema(vendorProfileResponse, 'VendorProfilePage');
