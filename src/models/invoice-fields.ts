import { overlap } from './geometry.js';
import { findIbans, findTaxId } from './identifiers.js';
import { acceptDate, findLabelledFields, subRun, type AcceptedValue, type FieldCandidate, type FieldRule } from './labelled-fields.js';
import { NUMBER_WORD, TAX_ID_LABEL } from './labels.js';
import { findCurrency, isAmount, parseAmount, plain, type DateOptions } from './normalize.js';
import { runInRange, type PageText, type TextLine, type TextRun } from './text-lines.js';

const INVOICE_FIELDS = [
  'InvoiceId',
  'InvoiceDate',
  'DueDate',
  'VendorName',
  'VendorTaxId',
  'CustomerName',
  'CustomerTaxId',
  'SubTotal',
  'TotalTax',
  'InvoiceTotal',
  'Currency',
  'IBAN',
] as const;
export type InvoiceField = (typeof INVOICE_FIELDS)[number];

/** Totals repeat on multi-page invoices (carried forward); the last one printed is the document's. */
export const LAST_ONE_WINS: ReadonlySet<InvoiceField> = new Set(['SubTotal', 'TotalTax', 'InvoiceTotal']);

const CUSTOMER_WORD = '(?:customer|client|cliente|buyer|adquirente|kunde|comprador)';
const VENDOR_WORD = '(?:supplier|vendor|seller|fornecedor|emitente|fournisseur|lieferant|proveedor)';

/** A tax number whose label does not say whose it is: the vendor's or the customer's by its place. */
type RuleCategory = InvoiceField | 'TaxId';

/** The labelled fields of invoices and receipts, most specific label first (see findLabelledFields). */
export function invoiceFieldRules(dates: DateOptions, portuguese: boolean): FieldRule<RuleCategory>[] {
  const date = acceptDate(dates);
  const taxId = acceptTaxId(portuguese);
  return [
    { category: 'CustomerTaxId', labels: [`${CUSTOMER_WORD}\\s*(?:${TAX_ID_LABEL})`], accept: taxId },
    { category: 'VendorTaxId', labels: [`${VENDOR_WORD}\\s*(?:${TAX_ID_LABEL})`], accept: taxId },
    { category: 'TaxId', labels: [TAX_ID_LABEL], accept: taxId },
    {
      category: 'DueDate',
      labels: ['due\\s*date', 'payment\\s*due(?:\\s*date)?', 'due(?:\\s*on)?', 'data\\s*(?:de\\s*)?vencimento', 'vencimento', "date\\s*d['’]?[ée]ch[ée]ance", '[ée]ch[ée]ance', 'f[aä]llig(?:keitsdatum|\\s*am)?', 'fecha\\s*de\\s*vencimiento'],
      accept: date,
    },
    {
      category: 'InvoiceDate',
      labels: [
        'invoice\\s*date',
        'date\\s*of\\s*issue',
        'issue\\s*date',
        'issued(?:\\s*on)?',
        'data(?:\\s*(?:de|da|do)\\s*(?:emiss[aã]o|fatura|documento))?',
        'date(?:\\s*de\\s*(?:la\\s*)?facture)?',
        'fecha(?:\\s*de\\s*(?:emisi[oó]n|factura))?',
        'rechnungsdatum',
        'datum',
      ],
      accept: date,
    },
    {
      category: 'InvoiceId',
      labels: [
        `invoice\\s*${NUMBER_WORD}`,
        'invoice',
        `inv\\.?\\s*${NUMBER_WORD}`,
        `(?:fatura|factura)(?:[-\\s]recibo)?\\s*${NUMBER_WORD}?`,
        `${NUMBER_WORD}\\s*(?:da\\s+|de\\s+)?(?:fatura|factura)`,
        `facture\\s*${NUMBER_WORD}?`,
        `rechnungs?[-\\s]*(?:nummer|nr)`,
        `(?:receipt|recibo|ticket|document|documento)\\s*${NUMBER_WORD}`,
      ],
      accept: acceptIdentifier,
    },
    { category: 'VendorName', labels: [VENDOR_WORD, 'from', 'sold\\s*by', 'issued\\s*by', 'vendedor'], accept: acceptName },
    { category: 'CustomerName', labels: [`${CUSTOMER_WORD}(?:\\s*name)?`, 'bill(?:ed)?\\s*to', 'sold\\s*to', 'invoice\\s*to', 'destinat[aá]rio'], accept: acceptName },
    {
      category: 'SubTotal',
      labels: [
        'sub-?\\s*total',
        'net\\s*(?:amount|total)',
        'total\\s*(?:excl\\.?|excluding|before|without|net|il[ií]quido|s/\\s*iva|sem\\s*iva|ht|sin\\s*iva)(?:\\s*(?:vat|tax|iva))?',
        'base\\s*(?:tribut[aá]vel|imponible|de\\s*incid[eê]ncia)',
        'valor\\s*(?:l[ií]quido|sem\\s*iva)',
        'nettobetrag',
        'zwischensumme',
      ],
      accept: acceptAmount,
    },
    {
      category: 'TotalTax',
      labels: [
        'total\\s*(?:vat|tax|taxes|iva|tva|mwst|impostos?)',
        '(?:vat|tax|iva|tva|mwst|ust|igic|sales\\s*tax|imposto|impuestos?|mehrwertsteuer)(?:\\s*\\(?\\s*\\d{1,2}(?:[.,]\\d+)?\\s*%\\s*\\)?)?',
      ],
      accept: acceptAmount,
    },
    {
      category: 'InvoiceTotal',
      labels: [
        'grand\\s*total',
        'total\\s*(?:due|amount|a\\s*pagar|to\\s*pay|payable|incl\\.?\\s*(?:vat|tax)|com\\s*iva|ttc|geral|general|(?:da\\s*)?(?:fatura|factura|documento)|\\(\\s*\\p{L}{3}\\s*\\))',
        'amount\\s*(?:due|payable)',
        'balance\\s*due',
        'montant\\s*(?:total|ttc)',
        'gesamtbetrag',
        'rechnungsbetrag',
        'importe\\s*total',
        'valor\\s*(?:total|a\\s*pagar)',
        'a\\s*pagar',
        'total',
      ],
      accept: acceptAmount,
    },
    { category: 'Currency', labels: ['currency', 'moeda', 'devise', 'w[äa]hrung', 'moneda'], accept: acceptCurrency },
  ];
}

/** The fields a page states: labelled ones, IBANs anywhere, and the vendor at the top when no label names it. */
export function findInvoiceFields(page: PageText, rules: readonly FieldRule<RuleCategory>[], excluded: ReadonlySet<TextLine>): FieldCandidate<InvoiceField>[] {
  const labelled = assignTaxIds(findLabelledFields(page, rules, excluded));
  return [...labelled, ...ibanFields(page), ...unlabelledVendor(page, labelled, excluded)];
}

/** How far below a customer label (in its line heights) its address block reaches: about five lines. */
const CUSTOMER_BLOCK_LINE_HEIGHTS = 7.5;

/**
 * A bare "NIF:"/"VAT No:" is the customer's when it sits in the customer's block (below the
 * customer label, in its column), else the vendor's; without a customer label the first one
 * printed is the vendor's and the next the customer's.
 */
function assignTaxIds(fields: FieldCandidate<RuleCategory>[]): FieldCandidate<InvoiceField>[] {
  const customer = fields.find((f) => f.category === 'CustomerName')?.labelLine;
  let bareSeen = 0;
  return fields.map((field) => {
    if (field.category !== 'TaxId') return field as FieldCandidate<InvoiceField>;
    const inCustomerBlock = customer ? isInBlockOf(customer, field.labelLine) : bareSeen++ > 0;
    return { ...field, category: inCustomerBlock ? 'CustomerTaxId' : 'VendorTaxId' };
  });
}

function isInBlockOf(heading: TextLine, line: TextLine): boolean {
  const a = heading.layoutBox;
  const b = line.layoutBox;
  const below = b.top - (a.top + a.height);
  return below >= 0 && below <= CUSTOMER_BLOCK_LINE_HEIGHTS * a.height && overlap(a.left, a.left + a.width, b.left, b.left + b.width) > 0;
}

function acceptAmount(value: TextRun): AcceptedValue | undefined {
  if (!isAmount(value.text)) return undefined;
  const amount = parseAmount(value.text);
  return amount === undefined ? undefined : { contentNormalized: amount };
}

/** An id has a digit and no spaces beyond a short series prefix ("FT 2024/17", "INV-0042"). */
function acceptIdentifier(value: TextRun): AcceptedValue | undefined {
  const text = value.text.trim();
  return /\d/.test(text) && text.split(/\s+/).length <= 3 && text.length <= 40 ? { contentNormalized: text.replace(/\s+/g, ' ') } : undefined;
}

function acceptName(value: TextRun): AcceptedValue | undefined {
  const text = value.text.replace(/\s+/g, ' ').trim();
  return /\p{L}{2}/u.test(text) ? { contentNormalized: text } : undefined;
}

function acceptCurrency(value: TextRun): AcceptedValue | undefined {
  const currency = findCurrency(value.text);
  return currency && { contentNormalized: currency.code };
}

function acceptTaxId(portuguese: boolean) {
  return (value: TextRun, page: PageText): AcceptedValue | undefined => {
    const taxId = findTaxId(value.text, portuguese);
    return taxId && { run: subRun(page, value, taxId.index, taxId.length), contentNormalized: taxId.normalized };
  };
}

/** IBANs anywhere on the page. */
function ibanFields(page: PageText): FieldCandidate<InvoiceField>[] {
  return findIbans(page.text).flatMap(({ index, length, normalized }) => {
    const run = runInRange(page, index, index + length);
    const line = run && page.lines.find((l) => l.words.includes(run.words[0]!));
    return run && line ? [{ category: 'IBAN' as const, value: run, contentNormalized: normalized, labelLine: line }] : [];
  });
}

const TITLE = /^(?:tax\s+)?(?:invoice|fatura|factura|facture|rechnung|receipt|recibo|ticket|original|duplicado|triplicado|c[oó]pia|copy|page|p[aá]gina)\b/;

/**
 * Without a vendor label, the vendor is the first line at the top of the first rows that is a
 * name: letters, not a title ("INVOICE"), not a label. Receipts print the shop there.
 */
function unlabelledVendor(page: PageText, labelled: readonly FieldCandidate<InvoiceField>[], excluded: ReadonlySet<TextLine>): FieldCandidate<InvoiceField>[] {
  if (labelled.some((f) => f.category === 'VendorName')) return [];
  const claimedLines = new Set(labelled.map((f) => f.labelLine));
  const claimedWords = new Set(labelled.flatMap((f) => f.value.words));
  const line = page.lines
    .slice(0, TOP_LINES)
    .find(
      (l) =>
        !excluded.has(l) &&
        !claimedLines.has(l) &&
        !l.words.some((w) => claimedWords.has(w)) &&
        /\p{L}{3}/u.test(l.text) &&
        !l.text.includes(':') &&
        !TITLE.test(plain(l.text)),
    );
  return line ? [{ category: 'VendorName', value: { ...line, confidence: line.confidence * UNLABELLED_CONFIDENCE }, contentNormalized: line.text, labelLine: line }] : [];
}

/** A vendor guessed from its position is less certain than a labelled one. */
const UNLABELLED_CONFIDENCE = 0.5;
/** How far down the page the vendor's name is looked for. */
const TOP_LINES = 5;
