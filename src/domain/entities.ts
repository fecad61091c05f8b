import { z } from 'zod';
import { isoDateTime } from './date-time.js';

/**
 * The document entities the models produce and the exports write: the spec's export models
 * ("Export models"), table by table, below any module so that the models need none. Geometry is in the
 * page's own units: points (1/72 inch) for PDF pages, pixels for images; origin top-left, y down.
 * Values the service does not have are null rather than absent, so every field is always present.
 */

const int = () => z.number().int();
const nullableDateTime = () => isoDateTime.nullable();

export const boundingBox = z
  .object({
    height: z.number(),
    width: z.number(),
    left: z.number(),
    bottom: z.number(),
    x: z.number(),
    y: z.number(),
    right: z.number(),
    top: z.number(),
  })
  .meta({ id: 'BoundingBox', description: 'Page units (points for PDFs, pixels for images), top-left origin, y down; x = left, y = top' });
export type BoundingBox = z.infer<typeof boundingBox>;

export const point = z.object({ x: z.number(), y: z.number() }).meta({ id: 'Point' });
export type Point = z.infer<typeof point>;

export const span = z
  .object({ offset: int(), length: int() })
  .meta({ id: 'Span', description: 'Characters of the page text (its lines joined by line feeds, top to bottom)' });
export type Span = z.infer<typeof span>;

/** Geometry: spread into every model that has a place on the page. */
export const geometryFields = {
  boundingBox,
  points: z.array(point).describe('Corners, clockwise from the top-left'),
  confidence: z.number().describe('0..1'),
  spans: z.array(span),
};
export type Geometry = z.infer<z.ZodObject<typeof geometryFields>>;

export const keyValue = z
  .object({
    ...geometryFields,
    pageNumber: int(),
    category: z.string(),
    categoryNormalized: z.string().nullable(),
    content: z.string(),
    contentNormalized: z.string().nullable().describe('Dates yyyy-mm-dd, amounts as plain decimals, identifiers without spaces'),
  })
  .meta({ id: 'KeyValue' });
export type KeyValue = z.infer<typeof keyValue>;

/** The KeyValue inside a QR code or a template field. */
export const childKeyValue = keyValue.extend({ childTemporaryId: z.string() }).meta({ id: 'ChildKeyValue' });
export type ChildKeyValue = z.infer<typeof childKeyValue>;

export const qrCode = z
  .object({
    ...geometryFields,
    keyValues: z.array(childKeyValue).describe('Pairs of a "K:V*K:V" payload'),
    qrCodeContent: z.string(),
    invalidKeysCount: int().describe('Parts of a key-value payload that are not K:V'),
    duplicatedKeys: z.array(z.string()),
  })
  .meta({ id: 'QrCode' });
export type QrCode = z.infer<typeof qrCode>;

const cellFields = {
  ...geometryFields,
  rowIndex: int(),
  columnIndex: int(),
  content: z.string(),
  contentNormalized: z.string().nullable(),
  pageNumber: int(),
};

export const header = z
  .object({ ...cellFields, category: z.string(), categoryNormalized: z.string().nullable() })
  .meta({ id: 'TableHeader' });
export type Header = z.infer<typeof header>;

export const cell = z.object(cellFields).meta({ id: 'TableCell' });
export type Cell = z.infer<typeof cell>;

export const pagePlacement = z.object({ pageNumber: int(), boundingBox, points: z.array(point) }).meta({ id: 'BoundsAndPoints' });

export const table = z
  .object({
    ...geometryFields,
    rowCount: int().describe('Rows including the header row'),
    columnCount: int(),
    tableHeaders: z.array(header),
    tableRows: z.record(z.string(), z.array(cell)).describe('Body rows by row index (the header row is 0); only cells with content'),
    boundsAndPoints: z.array(pagePlacement),
    tableRowsTableContent: z.record(z.string(), z.string()).describe("Each row's cell contents in column order, tab separated, by row index"),
    hasAlternativeHeaders: z.boolean(),
  })
  .meta({ id: 'Table' });
export type Table = z.infer<typeof table>;

export const templateHeader = header
  .extend({ uniqueId: z.string(), fieldType: int(), isRequired: z.boolean() })
  .meta({ id: 'TemplateTableHeader' });
export type TemplateHeader = z.infer<typeof templateHeader>;

export const templateCell = cell.extend({ uniqueId: z.string(), headerId: z.string() }).meta({ id: 'TemplateTableCell' });
export type TemplateCell = z.infer<typeof templateCell>;

export const templateBuilderField = z
  .object({
    ...geometryFields,
    fieldUniqueId: z.string(),
    type: z.string(),
    keyValues: z.array(childKeyValue),
    table: z
      .object({
        rowCount: int(),
        columnCount: int(),
        tableHeaders: z.array(templateHeader),
        tableRows: z.record(z.string(), z.array(templateCell)),
      })
      .nullable()
      .describe('Table fields only'),
  })
  .meta({ id: 'TemplateBuilderField' });
export type TemplateBuilderField = z.infer<typeof templateBuilderField>;

/**
 * An extension beside the spec (vendor profiles): on the typed fields of an invoice or receipt whose vendor
 * matched a vendor profile, where the value came from and whether the profile and the general
 * model agreed. Absent on every other entity.
 */
export const vendorProfileSource = z
  .object({
    profileId: int().describe('The vendor profile the document matched (GET vendorprofiles/{profileId})'),
    fromProfile: z.boolean().describe("True when the value was read with the profile (found by its anchor, or the vendor's own value found on the page); false when it is the general model's"),
    agreement: z
      .enum(['agreed', 'disagreed', 'profileOnly', 'modelOnly', 'profileMissed'])
      .describe(
        'agreed: the profile and the general model read the same value. disagreed: they read different values (the confidence says how sure the one given is). ' +
          'profileOnly: only the profile found the field. modelOnly: the profile knows nothing of the field. profileMissed: the profile knows the field but did not find it where it expected (a changed layout), so the value is the general model\'s.',
      ),
  })
  .meta({ id: 'VendorProfileSource' });
export type VendorProfileSource = z.infer<typeof vendorProfileSource>;

/**
 * Extension (not in the spec): on the fields of an invoice read from the document's own data
 * (an e-invoice: Factur-X/ZUGFeRD XML embedded in the PDF, or a CII or UBL XML file as the
 * task's source), what the data is and whether the printed page says the same; on a Warning
 * entity, why the data could not be used. Absent on every other entity.
 */
export const documentDataSource = z
  .object({
    syntax: z.enum(['CII', 'ZUGFeRD1', 'UBL']).nullable().describe('CII: UN/CEFACT Cross Industry Invoice (Factur-X, ZUGFeRD 2, XRechnung CII); ZUGFeRD1: ZUGFeRD 1.0 CrossIndustryDocument; UBL: OASIS UBL Invoice or CreditNote (XRechnung UBL, Peppol BIS Billing 3.0). Null on a Warning whose data could not be read'),
    profile: z.string().nullable().describe('The specification identifier the data states (its guideline or customization ID)'),
    fileName: z.string().nullable().describe('The embedded file the data came from; null when the XML is the task source'),
    print: z
      .enum(['agreed', 'contradicted', 'notRead', 'noPrint'])
      .nullable()
      .describe('agreed: the printed page states the same value. contradicted: the page reading gave another value and the data\'s is printed nowhere on the page; the field keeps the data\'s value and carries a warning. notRead: the page reading has no value for the field. noPrint: the task has no printed page (an XML source)'),
    printedContent: z.string().nullable().describe('What the printed page reads where it contradicts the data'),
    warning: z.string().nullable().describe('What a reviewer should check: a contradiction with the print, or why the document\'s data was not used'),
  })
  .meta({ id: 'DocumentDataSource' });
export type DocumentDataSource = z.infer<typeof documentDataSource>;

export const entity = z
  .object({
    type: z.string().describe('Kind: Line, Paragraph, Table, KeyValue, QrCode, Barcode, Field, PersonalData, Mrz, TemplateField, Warning'),
    category: z.string().describe('Meaning, e.g. InvoiceTotal, Email, or the label of a key-value pair'),
    groupName: z.string(),
    pageNumber: int(),
    chunkNumber: int(),
    customFormValues: z.string().nullable(),
    qrCode: qrCode.nullable(),
    table: table.nullable(),
    templateBuilderField: templateBuilderField.nullable(),
    keyValues: z.array(keyValue).describe('The entity content first; a line carries its words after it'),
    addedOn: nullableDateTime(),
    editedOn: nullableDateTime(),
    viewerEditedOn: nullableDateTime(),
    integratedOn: nullableDateTime(),
    addedBy: int().nullable(),
    editedBy: int().nullable(),
    integratedBy: int().nullable(),
    addedByExternal: z.string().nullable(),
    editedByExternal: z.string().nullable(),
    integratedByExternal: z.string().nullable(),
    integrationFailedReason: z.string().nullable(),
    integrationFailedReasonDetailed: z.string().nullable(),
    markedAsSolved: z.boolean(),
    notDetected: z.boolean().describe('An expected field the model did not find'),
    contentUnderstandingDetected: z.boolean(),
    confidence: z.number(),
    vendorProfile: vendorProfileSource.optional().describe('Extension: invoice and receipt fields of a document whose vendor matched a vendor profile'),
    documentData: documentDataSource.optional().describe("Extension: invoice fields read from the document's own data (e-invoices), and warnings about that data"),
    placedByReviewer: z
      .boolean()
      .optional()
      .describe("Extension: the reviewer pointed at where the value is printed (its keyValue's boundingBox and spans are that place); vendor profiles learn it"),
  })
  .meta({ id: 'ExportEntity' });
export type Entity = z.infer<typeof entity>;

export const chunk = z
  .object({
    entities: z.array(entity),
    version: z.string(),
    retrievedOn: isoDateTime,
    lastModifiedBy: int().nullable(),
    lastModifiedByExternal: z.string().nullable(),
    lastModifiedOn: nullableDateTime(),
    averageConfidence: z.number().nullable(),
  })
  .meta({ id: 'ExportChunk' });
export type Chunk = z.infer<typeof chunk>;
