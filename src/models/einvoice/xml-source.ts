import { TemplateType } from '../../domain/enums.js';

/**
 * The workspaces that take an invoice XML (CII or UBL) as a task's source: the invoice ones,
 * whose model reads the data. Any other workspace refuses XML as an unsupported file type.
 * Apart from the readers so the pipeline's main thread can check it without loading them.
 */
export const TAKES_INVOICE_XML: ReadonlySet<number> = new Set<TemplateType>([TemplateType.InvoicesUniversal, TemplateType.InvoicesPortugal]);

/** An XML source is one page in the counts (totalPages, free volume), however long the invoice. */
export const XML_PAGE_COUNT = 1;
