/**
 * The labelled invoices: each one's content (parties, numbers, dates, items, totals), wording,
 * layout and delivery (text PDF or a degraded scan), drawn from a seed, and the fields a careful
 * reader would type from it.
 */
import { INVOICE_FIELDS as MODEL_FIELDS, type InvoiceField } from '../../../src/models/fields/invoice-field-names.js';
import type { ExpectedField } from '../score.js';
import {
  address,
  companyName,
  COUNTRIES,
  CURRENCY_FORMS,
  formatDate,
  formatNumber,
  groupedIban,
  makeIban,
  personName,
  TAX_RATES,
  type Country,
  type NumberStyle,
  type PrintedDate,
} from './countries.js';
import { WORDING, type Language, type Wording } from './locales.js';
import { Random } from './random.js';

/** The model's fields the generated invoices are labelled with: all but the vendor's address and the customer's tax id. */
type Unlabelled = 'VendorAddress' | 'CustomerTaxId';
export type InvoiceFieldName = Exclude<InvoiceField, Unlabelled>;
const UNLABELLED: ReadonlySet<InvoiceField> = new Set<Unlabelled>(['VendorAddress', 'CustomerTaxId']);
export const INVOICE_FIELDS = MODEL_FIELDS.filter((field): field is InvoiceFieldName => !UNLABELLED.has(field));

export const LAYOUTS = ['classic', 'grid', 'letter', 'sentence', 'leaders', 'gst', 'parties', 'footer', 'stacked'] as const;
export type Layout = (typeof LAYOUTS)[number];

/**
 * text: the PDF as an invoicing tool writes it; letterhead: the same with the vendor's header as
 * a picture; scan: a page image in a PDF; photo: a JPEG; lowres: a small, blurred JPEG; stamp: a
 * scan in a PDF whose only text layer is a stamp word.
 */
export const DELIVERIES = ['text', 'letterhead', 'scan', 'photo', 'lowres', 'stamp'] as const;
export type Delivery = (typeof DELIVERIES)[number];

export interface Money {
  cents: number;
  printed: string;
}

export interface Party {
  name: string;
  address: string[];
  taxLabel?: string;
  taxId?: string;
}

export interface TaxLine {
  label: string;
  amount: Money;
}

export interface InvoiceSpec {
  id: string;
  seed: number;
  country: Country;
  language: Language;
  layout: Layout;
  delivery: Delivery;
  font: string;
  pageSize: 'A4' | 'Letter';
  vendor: Party;
  customer: Party;
  vendorUpper: boolean;
  title: string;
  number: { label: string; printed: string };
  date: { label: string } & PrintedDate;
  due?: { label: string } & PrintedDate;
  billToLabel: string;
  fromLabel: string;
  colon: boolean;
  currency: string;
  /** How the currency shows: beside every amount, beside the total only, or in a note. */
  currencyPlacement: 'all' | 'total' | 'note' | 'header';
  currencyForm: string;
  numberStyle: NumberStyle;
  headers: { description: string; quantity: string; unitPrice: string; amount: string };
  items: Array<{ description: string; quantity: number; unit: Money; amount: Money }>;
  subtotal: { label: string; amount: Money };
  taxes: TaxLine[];
  /** A printed "Total tax" line beside several tax lines (Indian CGST + SGST). */
  taxTotal?: { label: string; amount: Money };
  total: { label: string; amount: Money };
  iban?: { label: string; printed: string; value: string };
  notes: string[];
  wording: Wording;
  expected: Partial<Record<InvoiceFieldName, ExpectedField>>;
}

const FONTS = ['DejaVu Sans', 'DejaVu Serif', 'DejaVu Sans Condensed', 'DejaVu Sans Mono', 'DejaVu Sans'];
const COUNTRY_MIX: readonly Country[] = ['US', 'US', 'GB', 'GB', 'IN', 'IN', 'IN', 'MY', 'DE', 'DE', 'AT', 'CH', 'NL', 'NL', 'BE', 'FR', 'FR', 'IT', 'IT', 'ES', 'ES', 'PT', 'PT'];

function money(cents: number, style: NumberStyle, form: string | undefined): Money {
  const number = formatNumber(cents, style);
  return { cents, printed: form ? form.replace('{n}', number) : number };
}

function invoiceNumber(random: Random, country: Country, year: number): string {
  const yy = year % 100;
  const forms = [
    () => `INV-${year}-${random.digits(4)}`,
    () => `${year}/${random.int(10, 999)}`,
    () => `F${year}-${random.digits(5)}`,
    () => `RE-${random.int(10000, 99999)}`,
    () => `${random.int(100000, 999999)}`,
    () => `${year}${random.digits(4)}`,
    () => `A-${random.digits(4)}`,
    () => `${random.letters(3)}${random.digits(6)}`,
  ];
  if (country === 'IN') forms.push(() => `INV/${yy}-${yy + 1}/${random.digits(4)}`, () => `GST/${random.int(100, 999)}/${yy}-${yy + 1}`);
  if (country === 'PT') forms.push(() => `FT ${year}/${random.int(1, 999)}`, () => `FT A/${random.int(1, 999)}`);
  return random.pick(forms)();
}

const field = (kind: ExpectedField['kind'], printed: string, value = printed): ExpectedField => ({ kind, printed, value });

/** The labelled invoices of one seed: the same list every run. */
export function generateInvoices(seed: number, count: number): InvoiceSpec[] {
  const deliveries: Delivery[] = [];
  // About half text PDFs, the rest spread over the ways a scan arrives.
  const mix: Array<[Delivery, number]> = [['text', 0.5], ['letterhead', 0.1], ['scan', 0.14], ['photo', 0.12], ['lowres', 0.08], ['stamp', 0.06]];
  for (const [delivery, share] of mix) for (let i = 0; i < Math.round(share * count); i++) deliveries.push(delivery);
  while (deliveries.length < count) deliveries.push('text');
  return Array.from({ length: count }, (_, index) => generateInvoice(seed * 1000 + index, index, deliveries[(index * 7) % count]!, LAYOUTS[index % LAYOUTS.length]!));
}

function generateInvoice(seed: number, index: number, delivery: Delivery, layout: Layout): InvoiceSpec {
  const random = new Random(seed);
  const country = layout === 'gst' ? 'IN' : random.pick(COUNTRY_MIX);
  const info = COUNTRIES[country];
  let language = random.pick(info.languages);
  if (layout === 'sentence' && !WORDING[language].sentence) language = random.chance(0.5) ? 'fr' : language;
  const wording = WORDING[language];
  const label = (options: readonly string[]) => random.pick(options);

  const vendorName = companyName(random, country, language);
  const customerCountry = random.chance(0.8) ? country : random.pick(['DE', 'NL', 'FR', 'GB', 'US'] as const);
  const customerName = random.chance(0.75) ? companyName(random, customerCountry, language) : personName(random);
  const vendorTax = random.chance(country === 'US' ? 0.4 : 0.85);
  const vendor: Party = {
    name: vendorName,
    address: address(random, country).lines,
    ...(vendorTax ? { taxLabel: label(info.taxLabels), taxId: info.taxId(random) } : {}),
  };
  const customerTax = random.chance(0.35);
  const customer: Party = {
    name: customerName,
    address: address(random, customerCountry).lines,
    ...(customerTax ? { taxLabel: label(COUNTRIES[customerCountry].taxLabels), taxId: COUNTRIES[customerCountry].taxId(random) } : {}),
  };

  const year = random.pick([2023, 2024, 2025]);
  const issued = new Date(Date.UTC(year, random.int(0, 11), random.int(1, 28)));
  const dueDays = random.pick([7, 14, 15, 30, 30, 45, 60]);
  const dated = new Date(issued.getTime() + dueDays * 86_400_000);
  // An English invoice of a continental vendor writes the date the continental way (or ISO).
  const dateStyles = language === 'en' && !['US', 'GB', 'IN', 'MY'].includes(country) ? (['dmy-slash', 'd-month-y', 'iso'] as const) : info.dateStyles;
  const dateStyle = random.pick(dateStyles);
  const printDate = (date: Date) => formatDate(date, dateStyle, wording.months, wording.shortMonths);
  const hasDue = random.chance(0.65);

  const currency = random.chance(0.9) ? info.currency : random.pick(['EUR', 'USD', 'GBP']);
  const currencyForm = random.pick(CURRENCY_FORMS[currency]!);
  const currencyPlacement = random.pick(['all', 'all', 'total', 'total', 'note', 'header'] as const);
  const numberStyle = language === 'en' && ['DE', 'NL', 'IT', 'ES', 'PT', 'BE', 'AT'].includes(country) ? random.pick(['en', 'eu'] as const) : random.pick(info.numberStyles);
  const formOf = (isTotal: boolean) => (currencyPlacement === 'all' || (isTotal && currencyPlacement === 'total') ? currencyForm : undefined);

  const items = Array.from({ length: random.int(1, 6) }, () => {
    const quantity = random.pick([1, 1, 1, 2, 3, 5, 10, 12]);
    const unitCents = random.int(5, layout === 'gst' ? 9000 : 1500) * random.pick([100, 100, 25, 10]);
    return { description: random.pick(wording.items), quantity, unit: money(unitCents, numberStyle, formOf(false)), amount: money(unitCents * quantity, numberStyle, formOf(false)) };
  });
  const subtotalCents = items.reduce((sum, item) => sum + item.amount.cents, 0);
  const rate = random.pick(TAX_RATES[country]);
  const rateText = (basisPoints: number) => `${(basisPoints / 100).toString().replace('.', language === 'en' ? '.' : ',')}%`;
  const taxes: TaxLine[] = [];
  let taxTotal: InvoiceSpec['taxTotal'];
  if (country === 'IN' && random.chance(0.7)) {
    const half = Math.round((subtotalCents * rate) / 20000);
    taxes.push({ label: `CGST @ ${rateText(rate / 2)}`, amount: money(half, numberStyle, formOf(false)) });
    taxes.push({ label: `SGST @ ${rateText(rate / 2)}`, amount: money(half, numberStyle, formOf(false)) });
    if (random.chance(0.5)) taxTotal = { label: random.pick(['Total GST', 'Total Tax', 'Tax Amount']), amount: money(2 * half, numberStyle, formOf(false)) };
  } else if (rate > 0) {
    const taxLabel = label(wording.tax).replace('{rate}', rateText(rate));
    taxes.push({ label: taxLabel, amount: money(Math.round((subtotalCents * rate) / 10000), numberStyle, formOf(false)) });
  } else {
    taxes.push({ label: label(wording.tax).replace(/\s*\(?@?\s*\{rate\}\)?/, ''), amount: money(0, numberStyle, formOf(false)) });
  }
  const taxCents = taxes.reduce((sum, tax) => sum + tax.amount.cents, 0);
  const totalCents = subtotalCents + taxCents;

  const ibanValue = makeIban(random, country);
  const iban = ibanValue && random.chance(0.8) ? { label: random.pick(['IBAN', 'IBAN:', 'IBAN No.']), printed: random.chance(0.7) ? groupedIban(ibanValue) : ibanValue, value: ibanValue } : undefined;

  const colon = random.chance(0.7);
  const spec: InvoiceSpec = {
    id: `inv-${String(index + 1).padStart(3, '0')}`,
    seed,
    country,
    language,
    layout,
    delivery,
    font: random.pick(FONTS),
    pageSize: country === 'US' ? 'Letter' : 'A4',
    vendor,
    customer,
    vendorUpper: random.chance(0.25),
    title: label(wording.titles),
    number: { label: label(wording.number), printed: invoiceNumber(random, country, year) },
    date: { label: label(wording.date), ...printDate(issued) },
    ...(hasDue ? { due: { label: label(wording.due), ...printDate(dated) } } : {}),
    billToLabel: label(wording.billTo),
    fromLabel: label(wording.from),
    colon,
    currency,
    currencyPlacement,
    currencyForm,
    numberStyle,
    headers: { description: label(wording.description), quantity: label(wording.quantity), unitPrice: label(wording.unitPrice), amount: label(wording.amount) },
    items,
    subtotal: { label: label(wording.subtotal), amount: money(subtotalCents, numberStyle, formOf(false)) },
    taxes,
    ...(taxTotal ? { taxTotal } : {}),
    total: { label: label(wording.total), amount: money(totalCents, numberStyle, formOf(true)) },
    ...(iban ? { iban } : {}),
    notes: [random.pick(wording.thanks), wording.page],
    wording,
    expected: {},
  };
  if (spec.vendorUpper) spec.vendor.name = spec.vendor.name.toUpperCase();
  spec.expected = expectedFields(spec);
  return spec;
}

const decimal = (cents: number) => (cents / 100).toFixed(2);

function expectedFields(spec: InvoiceSpec): InvoiceSpec['expected'] {
  const taxCents = spec.taxes.reduce((sum, tax) => sum + tax.amount.cents, 0);
  const expected: InvoiceSpec['expected'] = {
    InvoiceId: field('identifier', spec.number.printed),
    InvoiceDate: field('date', spec.date.printed, spec.date.iso),
    VendorName: field('text', spec.vendor.name),
    CustomerName: field('text', spec.customer.name),
    SubTotal: field('amount', spec.subtotal.amount.printed, decimal(spec.subtotal.amount.cents)),
    TotalTax: field('amount', spec.taxTotal?.amount.printed ?? (spec.taxes.length === 1 ? spec.taxes[0]!.amount.printed : formatNumber(taxCents, 'plain')), decimal(taxCents)),
    InvoiceTotal: field('amount', spec.total.amount.printed, decimal(spec.total.amount.cents)),
    Currency: field('code', spec.currency),
  };
  if (spec.due) expected.DueDate = field('date', spec.due.printed, spec.due.iso);
  if (spec.vendor.taxId) expected.VendorTaxId = field('identifier', spec.vendor.taxId);
  if (spec.iban) expected.IBAN = field('identifier', spec.iban.printed, spec.iban.value);
  return expected;
}
