import { CII_ROOTS, readCii } from './cii.js';
import type { InvoiceData } from './invoice-data.js';
import { readUbl, UBL_ROOTS } from './ubl.js';
import { parseXml, type XmlElement } from './xml-tree.js';

export type InvoiceXmlReading = { ok: true; data: InvoiceData } | { ok: false; reason: string };

/** Namespaces of the invoice roots: an element merely named "Invoice" in another vocabulary is no invoice. */
const UBL_NAMESPACE = /^urn:oasis:names:specification:ubl:schema:xsd:(?:Invoice|CreditNote)-2$/;
const CII_NAMESPACE = /^urn:(?:un:unece:uncefact:data:standard:CrossIndustryInvoice:\d+|ferd:CrossIndustryDocument:invoice:\dp\d)$/;

/** Which invoice syntax a root element is, undefined for any other XML. */
function syntaxOf(root: XmlElement) {
  const cii = CII_ROOTS[root.name];
  if (cii && CII_NAMESPACE.test(root.namespace)) return cii;
  if (UBL_ROOTS.has(root.name) && UBL_NAMESPACE.test(root.namespace)) return 'UBL' as const;
  return undefined;
}

/** Whether parsed XML is an invoice we read (CII, ZUGFeRD 1.0 or UBL). */
export function isInvoiceRoot(root: XmlElement): boolean {
  return syntaxOf(root) !== undefined;
}

/**
 * Reads an invoice XML (CII, ZUGFeRD 1.0 or UBL) safely (xml-tree.ts). What is not well-formed,
 * hostile, or no invoice we know gives the reason instead, for a warning: never an error.
 */
export function readInvoiceXml(bytes: Uint8Array | string): InvoiceXmlReading {
  const parsed = parseXml(bytes);
  if (!parsed.ok) return parsed;
  const syntax = syntaxOf(parsed.root);
  if (!syntax) return { ok: false, reason: `the XML is no invoice we read (its root is ${parsed.root.name}${parsed.root.namespace ? ` in ${parsed.root.namespace}` : ''})` };
  const data = syntax === 'UBL' ? readUbl(parsed.root) : readCii(parsed.root, syntax);
  if (Object.keys(data.fields).length === 0) return { ok: false, reason: 'the invoice XML states none of the invoice fields' };
  return { ok: true, data };
}
