/**
 * Invoices of made-up vendors for the vendor-profile loop (issue 16): each vendor keeps its
 * identity, its layout, its language and its numbering from one document to the next; the values
 * (number, dates, customer, amounts) change. Text-layer PDFs drawn with pdf-lib, and scans of them
 * (the page rendered to pixels, turned a little, speckled, shifted, and put back in a PDF with no
 * text layer). The expected value of every field goes with each document.
 */
import { PDFDocument, StandardFonts, type PDFFont } from 'pdf-lib';
import sharp from 'sharp';
import { addImagePage } from '../../test/support/image-pdf.js';

export type Language = 'en' | 'de' | 'fr' | 'pt' | 'es' | 'nl';
/** inline: "Label: value" lines; grid: labels in one column, values in the next; header: a row of labels over a row of values. */
export type Layout = 'inline' | 'grid' | 'header';

export interface Vendor {
  key: string;
  name: string;
  street: string;
  city: string;
  taxId: string;
  iban: string;
  language: Language;
  layout: Layout;
  currency: 'EUR' | 'GBP' | 'USD' | 'CHF';
  /** The vendor's labels, where it words them its own way. */
  labels: Partial<Record<LabelName, string>>;
  /** Its invoice numbers: the n-th as printed. */
  numbering: (n: number, year: number) => string;
  /** Where its blocks sit (points): each vendor its own letterhead. */
  offset: { x: number; y: number };
}

type LabelName = 'invoice' | 'number' | 'date' | 'due' | 'customer' | 'subtotal' | 'tax' | 'total' | 'iban' | 'taxId' | 'billTo';

const LABELS: Record<Language, Record<LabelName, string>> = {
  en: { invoice: 'INVOICE', number: 'Invoice No', date: 'Invoice date', due: 'Due date', customer: 'Customer', subtotal: 'Subtotal', tax: 'VAT', total: 'Total', iban: 'IBAN', taxId: 'VAT No', billTo: 'Bill to' },
  de: { invoice: 'RECHNUNG', number: 'Rechnungsnummer', date: 'Rechnungsdatum', due: 'Fällig am', customer: 'Kunde', subtotal: 'Nettobetrag', tax: 'MwSt', total: 'Gesamtbetrag', iban: 'IBAN', taxId: 'USt-IdNr', billTo: 'Rechnung an' },
  fr: { invoice: 'FACTURE', number: 'Facture n°', date: 'Date de facture', due: "Date d'échéance", customer: 'Client', subtotal: 'Total HT', tax: 'TVA', total: 'Total TTC', iban: 'IBAN', taxId: 'N° TVA', billTo: 'Facturé à' },
  pt: { invoice: 'FATURA', number: 'Fatura n.º', date: 'Data de emissão', due: 'Data de vencimento', customer: 'Cliente', subtotal: 'Total ilíquido', tax: 'IVA', total: 'Total a pagar', iban: 'IBAN', taxId: 'NIF', billTo: 'Exmo.(s) Sr.(s)' },
  es: { invoice: 'FACTURA', number: 'Factura n.º', date: 'Fecha de factura', due: 'Vencimiento', customer: 'Cliente', subtotal: 'Base imponible', tax: 'IVA', total: 'Total factura', iban: 'IBAN', taxId: 'NIF', billTo: 'Facturar a' },
  nl: { invoice: 'FACTUUR', number: 'Factuurnummer', date: 'Factuurdatum', due: 'Vervaldatum', customer: 'Klant', subtotal: 'Subtotaal', tax: 'BTW', total: 'Totaal', iban: 'IBAN', taxId: 'BTW-nummer', billTo: 'Factuur aan' },
};

/** The fields a document's expectations name (the invoice model's names). */
export const SCORED_FIELDS = ['InvoiceId', 'InvoiceDate', 'DueDate', 'VendorName', 'VendorTaxId', 'CustomerName', 'SubTotal', 'TotalTax', 'InvoiceTotal', 'Currency', 'IBAN'] as const;
export type ScoredField = (typeof SCORED_FIELDS)[number];

export interface ExpectedValue {
  /** As printed (what a reviewer types). */
  content: string;
  /** As the export normalises it. */
  normalized: string;
}

export interface VendorDocument {
  vendor: Vendor;
  /** Texts placed on the A4 page, in points from the top-left. */
  texts: Array<{ text: string; x: number; y: number; size?: number; bold?: boolean }>;
  expected: Record<ScoredField, ExpectedValue>;
}

/** A small deterministic generator (mulberry32). */
export function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const pick = <T>(r: () => number, items: readonly T[]): T => items[Math.floor(r() * items.length)]!;

const CUSTOMERS = ['Contoso Trading GmbH', 'Fabrikam Logistics SA', 'Tailspin Retail Lda', 'Wide World Importers BV', 'Litware Systems Ltd', 'Adatum Consulting SL'];

function amountText(value: number, language: Language): string {
  const [int, dec] = value.toFixed(2).split('.') as [string, string];
  const grouped = (sep: string) => int.replace(/\B(?=(\d{3})+(?!\d))/g, sep);
  if (language === 'en') return `${grouped(',')}.${dec}`;
  if (language === 'fr') return `${grouped(' ')},${dec}`;
  return `${grouped('.')},${dec}`;
}

function dateText(iso: string, language: Language): string {
  const [y, m, d] = iso.split('-') as [string, string, string];
  if (language === 'de' || language === 'nl') return `${d}.${m}.${y}`;
  if (language === 'pt') return `${d}-${m}-${y}`;
  return `${d}/${m}/${y}`;
}

const isoDay = (date: Date) => date.toISOString().slice(0, 10);

/**
 * The n-th document of a vendor: new number, dates, customer and amounts; the same identity,
 * labels and places (moved by `shift` points when the vendor changed its layout a little).
 */
export function vendorDocument(vendor: Vendor, n: number, options: { redesign?: boolean } = {}): VendorDocument {
  const r = random(hash(`${vendor.key}:${n}`));
  const year = 2026;
  const issued = new Date(Date.UTC(year, Math.floor(r() * 11), 1 + Math.floor(r() * 27)));
  const due = new Date(issued.getTime() + pick(r, [14, 30, 45, 60]) * 86_400_000);
  const customer = pick(r, CUSTOMERS);
  const items = Array.from({ length: 2 + Math.floor(r() * 3) }, (_, i) => ({ description: `Item ${String.fromCharCode(65 + i)}-${100 + Math.floor(r() * 800)}`, qty: 1 + Math.floor(r() * 9), price: Math.round((20 + r() * 900) * 100) / 100 }));
  const subtotal = Math.round(items.reduce((s, it) => s + it.qty * it.price, 0) * 100) / 100;
  const rate = vendor.language === 'en' ? 20 : vendor.language === 'de' ? 19 : vendor.language === 'pt' ? 23 : vendor.language === 'nl' ? 21 : vendor.language === 'es' ? 21 : 20;
  const tax = Math.round(subtotal * rate) / 100;
  const total = Math.round((subtotal + tax) * 100) / 100;
  const number = vendor.numbering(1 + Math.floor(r() * 9000), year);
  const L = { ...LABELS[vendor.language], ...vendor.labels };
  const amt = (v: number) => amountText(v, vendor.language);
  const dt = (d: Date) => dateText(isoDay(d), vendor.language);
  const { x: ox, y: oy } = options.redesign ? { x: 40, y: 40 } : vendor.offset;
  const layout: Layout = options.redesign ? (vendor.layout === 'grid' ? 'header' : 'grid') : vendor.layout;

  const texts: VendorDocument['texts'] = [
    { text: vendor.name, x: ox, y: oy, size: 16, bold: true },
    { text: vendor.street, x: ox, y: oy + 18 },
    { text: vendor.city, x: ox, y: oy + 31 },
    { text: `${L.taxId}: ${vendor.taxId}`, x: ox, y: oy + 44 },
    { text: L.invoice, x: 420, y: oy, size: 18, bold: true },
  ];
  const meta: Array<[string, string]> = [
    [L.number, number],
    [L.date, dt(issued)],
    [L.due, dt(due)],
  ];
  const top = oy + 90;
  if (layout === 'inline') {
    meta.forEach(([label, value], i) => texts.push({ text: `${label}: ${value}`, x: 330, y: top + 15 * i }));
  } else if (layout === 'grid') {
    meta.forEach(([label, value], i) => {
      texts.push({ text: label, x: 330, y: top + 15 * i });
      texts.push({ text: value, x: 450, y: top + 15 * i });
    });
  } else {
    meta.forEach(([label, value], i) => {
      texts.push({ text: label, x: ox + 170 * i, y: top + 60 });
      texts.push({ text: value, x: ox + 170 * i, y: top + 75 });
    });
  }
  const partyTop = layout === 'header' ? top : top;
  texts.push({ text: `${L.billTo}:`, x: ox, y: partyTop });
  texts.push({ text: customer, x: ox, y: partyTop + 14 });
  texts.push({ text: pick(r, ['Rua Augusta 12, 1100-053 Lisboa', 'Hauptstraße 5, 10115 Berlin', '3 Rue de Rivoli, 75001 Paris', 'Calle Mayor 8, 28013 Madrid']), x: ox, y: partyTop + 28 });

  const itemsTop = top + 120;
  ['Description', 'Qty', 'Unit price', 'Amount'].forEach((h, c) => texts.push({ text: h, x: [ox, 300, 370, 470][c]!, y: itemsTop, bold: true }));
  items.forEach((it, i) => {
    const y = itemsTop + 16 * (i + 1);
    texts.push({ text: it.description, x: ox, y });
    texts.push({ text: String(it.qty), x: 300, y });
    texts.push({ text: amt(it.price), x: 370, y });
    texts.push({ text: amt(Math.round(it.qty * it.price * 100) / 100), x: 470, y });
  });
  const totalsTop = itemsTop + 16 * (items.length + 2);
  const totals: Array<[string, string]> = [
    [L.subtotal, amt(subtotal)],
    [`${L.tax} ${rate}%`, amt(tax)],
    [L.total, `${amt(total)} ${vendor.currency}`],
  ];
  totals.forEach(([label, value], i) => {
    texts.push({ text: label, x: 340, y: totalsTop + 15 * i, bold: i === 2 });
    texts.push({ text: value, x: 470, y: totalsTop + 15 * i, bold: i === 2 });
  });
  texts.push({ text: `${L.iban}: ${spacedIban(vendor.iban)}`, x: ox, y: 760 });
  texts.push({ text: `${vendor.name} · ${vendor.street} · ${vendor.city}`, x: ox, y: 790, size: 8 });

  const plain = (content: string, normalized = content): ExpectedValue => ({ content, normalized });
  return {
    vendor,
    texts,
    expected: {
      InvoiceId: plain(number),
      InvoiceDate: plain(dt(issued), isoDay(issued)),
      DueDate: plain(dt(due), isoDay(due)),
      VendorName: plain(vendor.name),
      VendorTaxId: plain(vendor.taxId, vendor.taxId.replace(/[\s.-]/g, '').toUpperCase()),
      CustomerName: plain(customer),
      SubTotal: plain(amt(subtotal), subtotal.toFixed(2)),
      TotalTax: plain(amt(tax), tax.toFixed(2)),
      InvoiceTotal: plain(amt(total), total.toFixed(2)),
      Currency: plain(vendor.currency),
      IBAN: plain(spacedIban(vendor.iban), vendor.iban),
    },
  };
}

const spacedIban = (iban: string) => iban.replace(/(.{4})/g, '$1 ').trim();

function hash(text: string): number {
  let h = 2166136261;
  for (const c of text) h = Math.imul(h ^ c.charCodeAt(0), 16777619);
  return h >>> 0;
}

const A4 = { width: 595.28, height: 841.89 };

/** The document as a text-layer PDF. */
export async function documentPdf(doc: VendorDocument): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  const regular: PDFFont = await pdf.embedFont(StandardFonts.Helvetica);
  const bold: PDFFont = await pdf.embedFont(StandardFonts.HelveticaBold);
  const page = pdf.addPage([A4.width, A4.height]);
  for (const t of doc.texts) page.drawText(t.text, { x: t.x, y: A4.height - t.y, size: t.size ?? 10, font: t.bold ? bold : regular });
  return Buffer.from(await pdf.save());
}

/**
 * The document as a scanner hands it over: its page rendered at `dpi` (by `render`, the service's
 * own PDF renderer), turned a little, speckled and moved on the sheet, in a PDF of the image only.
 */
export async function scannedCopy(textPdf: Buffer, render: (pdf: Buffer, dpi: number) => Promise<Buffer>, seed: number, dpi = 200): Promise<Buffer> {
  const r = random(seed);
  const png = await render(textPdf, dpi);
  const degrees = (r() - 0.5) * 1.6;
  const { data, info } = await sharp(png)
    .flatten({ background: '#ffffff' })
    .extend({ top: Math.round(r() * 40), left: Math.round(r() * 40), bottom: 20, right: 20, background: '#ffffff' })
    .rotate(degrees, { background: '#ffffff' })
    .greyscale()
    .raw()
    .toBuffer({ resolveWithObject: true });
  for (let i = 0; i < data.length; i++) data[i] = Math.min(255, Math.max(0, data[i]! + (r() - 0.5) * 60));
  const image = await sharp(data, { raw: { width: info.width, height: info.height, channels: 1 } }).png().toBuffer();
  const pdf = await PDFDocument.create();
  await addImagePage(pdf, image, dpi);
  return Buffer.from(await pdf.save());
}

/** The made-up vendors: several layouts and languages, some with labels of their own. */
export const VENDORS: readonly Vendor[] = [
  {
    key: 'northwind', name: 'Northwind Supplies Ltd', street: '12 Harbour Road', city: 'Bristol BS1 4QA', taxId: 'GB123456789', iban: 'GB82WEST12345698765432',
    language: 'en', layout: 'inline', currency: 'GBP', labels: { number: 'Our ref', total: 'Balance' }, numbering: (n, y) => `NW-${y}-${String(n).padStart(5, '0')}`, offset: { x: 50, y: 50 },
  },
  {
    key: 'bergmann', name: 'Bergmann Werkzeuge GmbH', street: 'Industriestraße 44', city: '70565 Stuttgart', taxId: 'DE811234567', iban: 'DE89370400440532013000',
    language: 'de', layout: 'grid', currency: 'EUR', labels: { number: 'Beleg-Nr.', due: 'Zahlbar bis' }, numbering: (n) => `B${String(n).padStart(7, '0')}`, offset: { x: 60, y: 40 },
  },
  {
    key: 'lumiere', name: 'Atelier Lumière SARL', street: '8 Rue des Lilas', city: '69003 Lyon', taxId: 'FR40303265045', iban: 'FR1420041010050500013M02606',
    language: 'fr', layout: 'header', currency: 'EUR', labels: { number: 'Pièce', date: 'Émise le' }, numbering: (n, y) => `${y}/${n}`, offset: { x: 45, y: 55 },
  },
  {
    key: 'tejo', name: 'Papelaria Tejo, Lda', street: 'Avenida da Liberdade 110', city: '1250-146 Lisboa', taxId: 'PT501964843', iban: 'PT50000201231234567890154',
    language: 'pt', layout: 'inline', currency: 'EUR', labels: { number: 'Documento', total: 'Valor' }, numbering: (n) => `FT T/${n}`, offset: { x: 55, y: 60 },
  },
  {
    key: 'sierra', name: 'Suministros Sierra SL', street: 'Calle Alcalá 200', city: '28028 Madrid', taxId: 'ESB12345674', iban: 'ES9121000418450200051332',
    language: 'es', layout: 'grid', currency: 'EUR', labels: { number: 'Núm. documento', due: 'Pago antes de' }, numbering: (n, y) => `S${y % 100}-${String(n).padStart(4, '0')}`, offset: { x: 50, y: 45 },
  },
  {
    key: 'dijk', name: 'Van Dijk Techniek BV', street: 'Keizersgracht 300', city: '1016 EZ Amsterdam', taxId: 'NL123456789B01', iban: 'NL91ABNA0417164300',
    language: 'nl', layout: 'header', currency: 'EUR', labels: { number: 'Referentie', total: 'Te betalen' }, numbering: (n) => `VD${n}`, offset: { x: 50, y: 50 },
  },
  {
    key: 'alpen', name: 'Alpenblick Reisen AG', street: 'Bahnhofstrasse 15', city: '8001 Zürich', taxId: 'CHE123456788', iban: 'CH9300762011623852957',
    language: 'de', layout: 'inline', currency: 'CHF', labels: { number: 'Auftrag', date: 'Datum' }, numbering: (n) => `AB-${n}-CH`, offset: { x: 60, y: 50 },
  },
  {
    key: 'harbor', name: 'Harbor Freight Partners Ltd', street: '1 Dock Street', city: 'Leeds LS10 1JF', taxId: 'GB987654321', iban: 'GB29NWBK60161331926819',
    language: 'en', layout: 'grid', currency: 'GBP', labels: { number: 'Doc. no', due: 'Pay by', total: 'Amount due' }, numbering: (n) => `HF/${n}/A`, offset: { x: 50, y: 55 },
  },
];

/** Vendors no review has taught: the general model's own ground (several layouts and languages). */
export const UNSEEN_VENDORS: readonly Vendor[] = [
  {
    key: 'oakridge', name: 'Oakridge Office Ltd', street: '44 Mill Lane', city: 'York YO1 7HH', taxId: 'GB555666777', iban: 'GB33BUKB20201555555555',
    language: 'en', layout: 'inline', currency: 'GBP', labels: {}, numbering: (n) => `INV-${n}`, offset: { x: 50, y: 50 },
  },
  {
    key: 'rhein', name: 'Rheinland Druck GmbH', street: 'Rheinufer 3', city: '50668 Köln', taxId: 'DE299999999', iban: 'DE02120300000000202051',
    language: 'de', layout: 'grid', currency: 'EUR', labels: {}, numbering: (n) => `RD${n}`, offset: { x: 55, y: 45 },
  },
  {
    key: 'provence', name: 'Huilerie de Provence SAS', street: '2 Chemin des Oliviers', city: '13100 Aix-en-Provence', taxId: 'FR83404833048', iban: 'FR7630006000011234567890189',
    language: 'fr', layout: 'inline', currency: 'EUR', labels: {}, numbering: (n, y) => `F${y}-${n}`, offset: { x: 50, y: 60 },
  },
  {
    key: 'douro', name: 'Vinhos do Douro, S.A.', street: 'Rua do Cais 9', city: '4050-512 Porto', taxId: 'PT509999998', iban: 'PT50003300004555812345678',
    language: 'pt', layout: 'grid', currency: 'EUR', labels: {}, numbering: (n) => `FT D/${n}`, offset: { x: 50, y: 50 },
  },
];
