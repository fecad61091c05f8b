import { accentedWords, spellsAccentsIn, withAccents } from './accented-names.js';
import { recipientInAddressBlock } from './address-block.js';
import { findBarcodes, parseKeyValuePayload, type PageBarcode } from '../page/barcodes.js';
import { detectPerPage } from '../page/chunks.js';
import { averageConfidence, keyValueOf, newEntity, notDetectedEntity, type PageRef } from '../page/text/entities.js';
import { chooseFields, type ChosenField, type DocumentFacts, type PagedCandidate } from '../fields/field-choice.js';
import { INVOICE_FIELDS, type InvoiceField } from '../fields/invoice-field-names.js';
import type { FieldCandidate } from '../fields/field-candidate.js';
import { isInBlockOf } from '../fields/party-blocks.js';
import { findPageCandidates } from './invoice-fields.js';
import { layoutEntities } from '../page/layout-entities.js';
import { respellLabelWord } from '../fields/label-words.js';
import { isLineItemTable, lineItemColumn } from './line-items.js';
import { NAME_AND_ADDRESS_WORDS } from '../receipt/known-words.js';
import type { Model } from '../model.js';
import { dateOptionsFor, findCurrencies, numericDateOrder, pascalCase, plain, type DateOptions } from '../fields/normalize.js';
import { analyzeLayout, type PageLayout } from '../page/text/page-layout.js';
import { ocrLanguages } from '../page/page-reader.js';
import { fapiaoCandidates } from './cn-fapiao-qr.js';
import { FISCAL_QR_INVOICE_FIELDS, fiscalQrValue, isFiscalQrPayload, readFiscalQrPair } from './pt-fiscal-qr.js';
import { receiptCandidates } from '../receipt/receipt-fields.js';
import type { LayoutTable } from '../page/text/tables.js';
import type { PageText, TextLine, TextRun } from '../page/text/text-lines.js';
import { companyNumbers, compactId } from '../fields/confidence-evidence.js';
import { correctLegalForm, domainSpellsName, guessVendor, recipientUnderSenderLine } from '../fields/vendor.js';
import type { VendorProfileSource } from '../vendor-profiles/vendor-profile.js';
import { chooseWithVendorProfile } from '../vendor-profiles/vendor-profile-choice.js';
import { withInvoiceData } from '../einvoice/with-invoice-data.js';

interface InvoiceKind {
  groupName: string;
  /** Fields reported as not detected when missing, so a reviewer sees the gap and fills it in where it is (every typed field the model reads). */
  expected: readonly InvoiceField[];
  /** Portuguese documents: NIF check digits, Portuguese OCR, the fiscal QR code. */
  portuguese: boolean;
  /** Till receipts: the shop and its address head the receipt, payment lines check the total. */
  receipt: boolean;
}

interface FiscalCode {
  page: PageRef;
  barcode: PageBarcode;
  pairs: ReadonlyMap<string, string>;
}

interface ReadPage {
  ref: PageRef;
  layout: PageLayout;
  itemTables: LayoutTable[];
  /** OCR'd words of the page's names as the accented languages spell them ("Kruger" -> "Krüger"). */
  accented: ReadonlyMap<string, string>;
  /** What a Chinese VAT invoice's QR code states (cn-fapiao-qr.ts). */
  stated: FieldCandidate[];
}

/** The fields a reviewer reads as names, whose accents an English OCR loses. */
const NAME_FIELDS: ReadonlySet<string> = new Set(['VendorName', 'CustomerName']);

/** The page's best candidate of each name field: the runs worth reading again for their accents. */
function bestNames(candidates: readonly PagedCandidate[]): TextRun[] {
  const best = new Map<string, PagedCandidate>();
  for (const c of candidates) if (NAME_FIELDS.has(c.category) && c.score > (best.get(c.category)?.score ?? 0)) best.set(c.category, c);
  return [...best.values()].map((c) => c.value);
}

/**
 * The invoice and receipt models: the Layout output of every page, the item table as
 * LineItems, and typed fields (ids, dates, parties, tax numbers, totals, currency, IBAN), each
 * where the document states it. The text inside images on text pages (a letterhead, a pasted
 * scan) is read too. Fields are chosen across pages once all are read, so that the document's
 * own dates tell whether it writes the day or the month first. Portuguese invoices are checked
 * against their fiscal QR code. Invoices that carry their own data (e-invoices) are read from
 * it, checked against the print (einvoice/).
 */
function invoiceModel(kind: InvoiceKind): Model {
  const model: Model = async (input) => {
    const hinted = dateOptionsFor(input.language);
    const fiscalCodes: FiscalCode[] = [];
    const pages: ReadPage[] = [];
    const languages = ocrLanguages(input, kind.portuguese ? ['pt'] : []);
    const spellsAccents = languages.some(spellsAccentsIn);

    const chunks = await detectPerPage(input, { languages, ...(kind.receipt ? { layout: 'column' as const, recogniser: 'paddle' as const, vocabulary: NAME_AND_ADDRESS_WORDS } : {}) }, async (page, ref) => {
      // Words OCR was unsure of that are label words misread ("lota!") are read as those (label-words.ts).
      const layout = analyzeLayout((await page.allWords()).map(respellLabelWord));
      const barcodes = await findBarcodes(page);
      const read: ReadPage = { ref, layout, itemTables: layout.tables.filter(isLineItemTable), accented: new Map(), stated: fapiaoCandidates(barcodes) };
      // Till receipts are read by PP-OCR, which spells accents itself; a page OCRed with an accented
      // language's model already has them.
      if (!kind.receipt && !spellsAccents) read.accented = await accentedWords(page, bestNames(pageCandidates(read, kind, hinted)));
      pages.push(read);
      if (kind.portuguese) fiscalCodes.push(...fiscalQrCodes(ref, barcodes));
      return layoutEntities(ref, layout, barcodes, {
        dates: hinted,
        tableOptions: lineItemsOptions,
        payloadReader: (keys) => (kind.portuguese && isFiscalQrPayload(keys) ? readFiscalQrPair : undefined),
      });
    });

    const { dates, facts } = documentFacts(input.language, documentText(pages));
    const candidates = pages.flatMap((page) => pageCandidates(page, kind, dates));
    const general = chooseFields(candidates, facts);
    const [fiscalCode] = fiscalCodes;
    if (fiscalCode) confirmWithFiscalCode(general, fiscalCode);
    // The vendor's profile, when reviewers taught the workspace this vendor: its reading first.
    const profiled = chooseWithVendorProfile(input.vendorProfiles ?? [], pages.map((p) => ({ ref: p.ref, text: p.layout.text })), candidates, general);
    const chosen = profiled?.chosen ?? general;

    for (const [category, value] of chosen) {
      if (category === 'VendorAddress' && !kind.receipt) continue;
      chunks[value.page.chunkNumber - 1]!.entities.push(fieldEntity(kind.groupName, category, value, profiled?.sources.get(category)));
    }
    const [first] = chunks;
    if (first) {
      const firstPage = { pageNumber: first.pageNumber, chunkNumber: 1 };
      for (const category of kind.expected.filter((c) => !chosen.has(c))) {
        first.entities.push(notDetectedEntity(firstPage, FIELD_TYPE, category, kind.groupName));
      }
    }
    for (const chunk of chunks) chunk.averageConfidence = averageConfidence(chunk.entities);
    return { kind: 'document', chunks };
  };
  return kind.receipt ? model : withInvoiceData(model, kind.expected);
}

/** A US state with its ZIP code ("Austin, TX 78701"). */
const US_ADDRESS = /\b(?:A[KLRZ]|C[AOT]|D[CE]|FL|GA|HI|I[ADLN]|K[SY]|LA|M[ADEINOST]|N[CDEHJMVY]|O[HKR]|PA|RI|S[CD]|T[NX]|UT|V[AT]|W[AIVY]),?\s+\d{5}(?:-\d{4})?\b/;

/** A Canadian province or territory and its postal code ("Kitchener, ON N2G 4G7", "Ontario N2G 4G7"). */
const CANADIAN_ADDRESS =
  /\b(?:AB|BC|MB|NB|NL|NS|NT|NU|ON|PE|QC|SK|YT|Alberta|British Columbia|Manitoba|New Brunswick|Newfoundland(?: and Labrador)?|Nova Scotia|Ontario|Qu[eé]bec|Saskatchewan|Yukon)\.?,?\s+[ABCEGHJ-NPRSTVXY]\d[ABCEGHJ-NPRSTV-Z][ -]?\d[ABCEGHJ-NPRSTV-Z]\d\b/;

/** An Australian state or territory and its four-digit postcode ("Brisbane QLD 4000", "Perth WA 6000"). */
const AUSTRALIAN_ADDRESS = /\b(?:NSW|VIC|QLD|SA|WA|TAS|NT|ACT)\s+\d{4}\b(?!-)/;

/** A North American telephone number as the US prints it ("609-664-2022", "(609) 664-2022"): a receipt's only address line may be its phone. */
const NANP_PHONE = /(?<![\d-])(?:\(\d{3}\)\s?|\d{3}[-.])\d{3}-\d{4}(?![\d-])/;

/** The currencies of countries that write dates month first, or either way. */
const EITHER_ORDER_CURRENCIES: ReadonlySet<string> = new Set(['USD', 'CAD']);

/**
 * What the whole document's text says, read once: the order of day and month, and the facts the
 * field choice weighs (field-choice.ts).
 *
 * Day or month first: the language hint when it says (en-US), else what the document's own numeric
 * dates show (a 15/03 or a 03/15 somewhere), else month first only for dollar documents with an
 * American address or telephone number; the rest of the world writes the day first. That order
 * was a guess where no hint other than "en" (the language of both orders) and no numeric date
 * decides, on a document in dollars (the US writes the month first, Canada either way, Australia
 * the day first) without the US address that settles it, or in no currency at all.
 *
 * A bare "$" is the dollar of the addresses when they are of one country other than the US:
 * Canada's or Australia's (both, or a US address too, say nothing).
 */
function documentFacts(language: string | undefined, text: string): { dates: DateOptions; facts: DocumentFacts } {
  const codes = findCurrencies(text).map((c) => c.code);
  const dollarsOnly = codes.length > 0 && codes.every((c) => c === 'USD');
  const usAddress = US_ADDRESS.test(text);
  const numericOrder = numericDateOrder(text);
  const dates = language ? dateOptionsFor(language) : { monthFirst: numericOrder ?? isAmerican(text) };
  const hinted = language !== undefined && language.toLowerCase() !== 'en';
  const settled = hinted || numericOrder !== undefined || (dollarsOnly && usAddress);
  const dateOrderGuessed = !settled && (codes.length === 0 || codes.some((c) => EITHER_ORDER_CURRENCIES.has(c)));
  const [canadian, australian] = [CANADIAN_ADDRESS.test(text), AUSTRALIAN_ADDRESS.test(text)];
  const addressDollar = usAddress || canadian === australian ? undefined : canadian ? 'CAD' : 'AUD';
  return { dates, facts: { usAddress, dateOrderGuessed, ...(addressDollar ? { addressDollar } : {}) } };
}

function documentText(pages: readonly ReadPage[]): string {
  return pages.map((p) => p.layout.text.text).join('\n');
}

/** Only American documents write the month first: dollars, and a state with its ZIP code or a US telephone number. */
export function isAmerican(text: string): boolean {
  const codes = findCurrencies(text).map((c) => c.code);
  return codes.length > 0 && codes.every((c) => c === 'USD') && (US_ADDRESS.test(text) || NANP_PHONE.test(text));
}

/** What an unlabelled vendor guess of a page after the first keeps of its score. */
const LATER_PAGE_VENDOR = 0.9;

function pageCandidates(page: ReadPage, kind: InvoiceKind, dates: DateOptions): PagedCandidate[] {
  const { text } = page.layout;
  const { candidates, taxIds, hits } = findPageCandidates(text, { dates, portuguese: kind.portuguese, itemTables: page.itemTables });
  const customerLabels = hits.filter((h) => h.definition.category === 'CustomerName' && h.definition.strength >= 0.7).map((h) => h.line);
  const found: FieldCandidate[] = [...candidates, ...page.stated];
  const recipient = recipientUnderSenderLine(text);
  if (recipient) {
    customerLabels.push(recipient);
    found.push({ category: 'CustomerName', value: recipient, contentNormalized: recipient.text.replace(/\s+/g, ' ').trim(), score: 0.7, label: 0, labelLine: recipient });
  }
  const customerNames = new Set(found.filter((c) => c.category === 'CustomerName').map((c) => plain(c.contentNormalized)));
  // A name a label gives as the sender's that another names as the customer is the payer's on a
  // remittance slip ("From: Mrs J. Whitfield" beside "Pay to: Tom Pryce Joinery").
  const payer = (c: FieldCandidate) => c.category === 'VendorName' && found.some((o) => o.category === 'CustomerName' && o.label >= c.label && plain(o.contentNormalized) === plain(c.contentNormalized));
  const payers = new Set(found.filter(payer));
  if (kind.receipt && page.ref.chunkNumber === 1) found.push(...receiptCandidates(text, hits));
  const vendor = guessVendor(text, hits, customerLabels, customerNames);
  // The letterhead on the first page names the sender; a later page's heading is more often a
  // notice or an advertisement ("Neu: ... Online Shop") than the name again.
  const laterPage = page.ref.chunkNumber > 1 ? LATER_PAGE_VENDOR : 1;
  if (vendor) {
    const guessed: FieldCandidate = { category: 'VendorName', value: vendor.run, contentNormalized: correctLegalForm(vendor.run.text.replace(/\s+/g, ' ').trim()), score: vendor.score * (kind.receipt ? 0.8 : 1) * laterPage, label: 0, labelLine: vendor.line };
    found.push(guessed);
    // The company's own web or mail domain spelling the name finds it a second time; it makes no
    // weak guess (a name mid-page, a "Powered by" line) a reading of the vendor.
    if (domainSpellsName(text, guessed.contentNormalized, customerLabels)) found.push({ ...guessed, confirms: true });
  }
  // No label names the customer: the address block of a letter's window may.
  const addressee = kind.receipt || customerNames.size > 0 ? undefined : recipientInAddressBlock(text, vendor?.line);
  if (addressee) {
    customerLabels.push(addressee);
    found.push({ category: 'CustomerName', value: addressee, contentNormalized: addressee.text.replace(/\s+/g, ' ').trim(), score: 0.55, label: 0, labelLine: addressee });
  }
  // A tax number in the customer's block is the customer's; one in the vendor's block the vendor's,
  // and then any other is the customer's; else the vendor's, less surely.
  const vendorLines = vendor ? [vendor.line, ...linesNaming(text, vendor.run.text)] : [];
  const owners = taxIds.map((taxId) => {
    const line = taxId.labelLine!;
    if (customerLabels.some((heading) => isInBlockOf(heading, line)) || namesTheAddressee(taxId)) return 'customer' as const;
    return vendorLines.some((heading) => isInBlockOf(heading, line)) ? ('vendor' as const) : ('unknown' as const);
  });
  // A VAT id holding the company number the vendor's blocks print (a SIREN) is the vendor's too
  // where the one in the vendor's block holds another (a template's footer of a placeholder
  // company); which of the two is the vendor's, the company numbers decide (field-choice.ts).
  const registrations = taxIds.filter((t, i) => owners[i] === 'vendor' && t.hit?.definition.category === 'TaxRegistration').map((t) => ({ ...t, category: 'VendorTaxId' as const }));
  const holds = (taxId: FieldCandidate) => companyNumbers('VendorTaxId', compactId(taxId.contentNormalized), registrations);
  const holdingIt = taxIds.findIndex((t, i) => owners[i] === 'unknown' && holds(t) === 'agree');
  if (holdingIt >= 0 && taxIds.some((t, i) => owners[i] === 'vendor' && holds(t) === 'differ')) owners[holdingIt] = 'vendor';
  const vendorKnown = owners.includes('vendor');
  taxIds.forEach((taxId, i) => {
    const owner = owners[i] === 'unknown' ? (vendorKnown ? 'customer' : 'vendor') : owners[i];
    found.push({ ...taxId, category: owner === 'customer' ? 'CustomerTaxId' : 'VendorTaxId', score: taxId.score * (owners[i] === 'unknown' ? 0.85 : 1) });
  });
  return found.filter((candidate) => !payers.has(candidate)).map((candidate) => ({ ...candidate, ...(NAME_FIELDS.has(candidate.category) ? respelled(candidate, page.accented) : {}), page: page.ref }));
}

/** Words before a tax number's label that make it the addressee's: "Ihre UID", "Your VAT No.", "Customer VAT", "BTW klant", the buyer's "買方". */
const ADDRESSEE_WORDS = /\b(?:your|ihre?|uw|votre|vostra|vuestro|su|customer|client|cliente|kunden?|klant|buyer|recipient|destinatario|destinataire)\b|買方|买方|買受人|买受人|購買方|购买方|客戶|客户/;

function namesTheAddressee(taxId: FieldCandidate): boolean {
  const line = taxId.labelLine!;
  const [lineSpan] = line.spans;
  const [valueSpan] = taxId.value.spans;
  if (!lineSpan || !valueSpan) return false;
  // The label's own words, just before the number: not a company name earlier on the line ("Bright Client Services Ltd · VAT ...").
  const label = plain(line.text.slice(0, Math.max(0, valueSpan.offset - lineSpan.offset))).trim().split(/\s+/).slice(-3).join(' ');
  return ADDRESSEE_WORDS.test(label);
}

/**
 * Lines that name `name` again besides where it was found: a footer's legal line ("Atelier Duval
 * SARL au capital de 10 000 € – N° TVA FR...") or a footer block headed by the company's name
 * tells whose tax number follows. Names of one short word are too common to tell.
 */
function linesNaming(page: PageText, name: string): TextLine[] {
  const words = (text: string) => ` ${plain(text).replace(/[^\p{L}\p{N}]+/gu, ' ').trim()} `;
  const wanted = words(name);
  if (wanted.length < 10 || wanted.trim().split(' ').length < 2) return [];
  return page.lines.filter((line) => words(line.text).includes(wanted));
}

function respelled(candidate: FieldCandidate, accented: ReadonlyMap<string, string>): Pick<FieldCandidate, 'value' | 'contentNormalized'> {
  return { value: { ...candidate.value, text: withAccents(candidate.value.text, accented) }, contentNormalized: withAccents(candidate.contentNormalized, accented) };
}

const FIELD_TYPE = 'Field';

function fieldEntity(groupName: string, category: InvoiceField, value: ChosenField, source?: VendorProfileSource) {
  const entity = newEntity(value.page, {
    type: FIELD_TYPE,
    category,
    groupName,
    confidence: value.confidence,
    keyValues: [
      keyValueOf(value.page, { box: value.value.box, confidence: value.confidence, spans: value.value.spans }, {
        category,
        categoryNormalized: category,
        content: value.value.text,
        contentNormalized: value.contentNormalized,
      }),
    ],
  });
  return source ? { ...entity, vendorProfile: source } : entity;
}

function lineItemsOptions(table: LayoutTable) {
  return isLineItemTable(table) ? { category: 'LineItems', columnName: (header: string) => lineItemColumn(header) ?? pascalCase(header) } : {};
}

function fiscalQrCodes(page: PageRef, barcodes: readonly PageBarcode[]): FiscalCode[] {
  return barcodes.flatMap((barcode) => {
    const payload = parseKeyValuePayload(barcode.text);
    const keys = payload?.pairs.map((p) => p.key) ?? [];
    return payload && isFiscalQrPayload(keys) ? [{ page, barcode, pairs: new Map(payload.pairs.map((p) => [p.key, p.value])) }] : [];
  });
}

/**
 * The fiscal QR code is written by certified invoicing software: a printed value it confirms
 * becomes certain, and where the print is missing or disagrees, the code's value is the field,
 * located at the code.
 */
function confirmWithFiscalCode(chosen: Map<InvoiceField, ChosenField>, code: FiscalCode): void {
  for (const [key, category] of Object.entries(FISCAL_QR_INVOICE_FIELDS)) {
    const raw = code.pairs.get(key);
    if (raw === undefined || category === undefined) continue;
    const stated = fiscalQrValue(key, raw);
    const printed = chosen.get(category);
    if (printed && sameValue(printed.contentNormalized, stated)) {
      chosen.set(category, { ...printed, confidence: 1 });
    } else {
      chosen.set(category, {
        page: code.page,
        value: { text: raw, box: code.barcode.box, confidence: 1, spans: [], words: [] },
        contentNormalized: stated,
        confidence: 1,
      });
    }
  }
}

/** Equal once spaces, case and a PT prefix of a tax number are set aside. */
function sameValue(a: string, b: string): boolean {
  const key = (value: string) => value.replace(/\s+/g, '').toUpperCase().replace(/^PT(?=\d{9}$)/, '');
  return key(a) === key(b);
}

/** Invoices report every typed field but the vendor's address (read for till receipts only). */
const INVOICE_EXPECTED: readonly InvoiceField[] = INVOICE_FIELDS.filter((f) => f !== 'VendorAddress');

export const invoicesUniversalModel = invoiceModel({
  groupName: 'InvoiceFields',
  expected: INVOICE_EXPECTED,
  portuguese: false,
  receipt: false,
});

export const invoicesPortugalModel = invoiceModel({
  groupName: 'InvoiceFields',
  expected: INVOICE_EXPECTED,
  portuguese: true,
  receipt: false,
});

export const receiptsModel = invoiceModel({
  groupName: 'ReceiptFields',
  expected: INVOICE_FIELDS,
  portuguese: false,
  receipt: true,
});
