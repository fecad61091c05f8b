/**
 * Real invoices of sellers who issued several, for the vendor-profile loop on real documents: the
 * dev e-invoices of the shared corpora (read from their printed page: the `printed-only/` copies)
 * and the public invoices of bench/corpora/invoices-public (e-invoices with their embedded data
 * removed in memory). Invoices are grouped by seller (name and VAT id as labelled); a seller with
 * one invoice teaches nothing measurable and is left out. The corpora are read where they are,
 * never copied into the repository.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { loadDevEInvoices } from '../accuracy/einvoices.js';
import type { LabelledInvoiceField } from '../accuracy/invoice-labels.js';
import { fileKindOf, loadPublicInvoices, withoutEmbeddedFiles } from '../accuracy/public-invoices.js';
import { textKey, type ExpectedField } from '../accuracy/score.js';

export interface RealInvoice {
  /** The file's name without its extension. */
  name: string;
  /** The bytes the service is given: the printed page only. */
  read: () => Promise<Buffer>;
  type: string;
  /** Where the invoice was issued, when known: a name in two countries is two companies (placeholder names of sample forms above all). */
  country?: string;
  expected: Partial<Record<LabelledInvoiceField, ExpectedField>>;
}

export interface Seller {
  /** Which corpus, and the seller as labelled. */
  corpus: 'einvoices-dev' | 'invoices-public';
  name: string;
  /** In the order of their file names: the first is the one reviewed. */
  invoices: RealInvoice[];
}

/**
 * Groups of one seller: the same name in the same country, and a VAT id or IBAN in common (one
 * name may be two sellers, "LE FOURNISSEUR" with two VAT ids); an invoice showing neither joins the
 * name's only group. A vendor's sample forms put one placeholder name ("Contoso") on invoices of
 * several countries; those are as many sellers.
 */
function bySeller(corpus: Seller['corpus'], invoices: readonly RealInvoice[]): Seller[] {
  const groups: Array<{ nameKey: string; numbers: Set<string>; seller: Seller }> = [];
  const sorted = [...invoices].sort((a, b) => a.name.localeCompare(b.name));
  const numbersOf = (i: RealInvoice) => [i.expected.VendorTaxId?.value, i.expected.IBAN?.value].flatMap((v) => (v ? [v.replace(/\s/g, '').toUpperCase()] : []));
  const unnumbered: RealInvoice[] = [];
  for (const invoice of sorted) {
    const label = invoice.expected.VendorName?.value;
    if (!label) continue;
    const name = sellerKey(label, invoice);
    const numbers = numbersOf(invoice);
    if (numbers.length === 0) {
      unnumbered.push(invoice);
      continue;
    }
    const group = groups.find((g) => g.nameKey === name && numbers.some((n) => g.numbers.has(n)));
    if (group) {
      group.seller.invoices.push(invoice);
      numbers.forEach((n) => group.numbers.add(n));
    } else {
      const tax = invoice.expected.VendorTaxId?.value;
      groups.push({ nameKey: name, numbers: new Set(numbers), seller: { corpus, name: tax ? `${label} (${tax})` : label, invoices: [invoice] } });
    }
  }
  for (const invoice of unnumbered) {
    const key = sellerKey(invoice.expected.VendorName!.value, invoice);
    const same = groups.filter((g) => g.nameKey === key);
    if (same.length === 1) same[0]!.seller.invoices.push(invoice);
    else if (same.length === 0) groups.push({ nameKey: key, numbers: new Set(), seller: { corpus, name: invoice.expected.VendorName!.value, invoices: [invoice] } });
  }
  for (const g of groups) g.seller.invoices.sort((a, b) => a.name.localeCompare(b.name));
  return groups.map((g) => g.seller).filter((s) => s.invoices.length > 1);
}

function sellerKey(name: string, invoice: RealInvoice): string {
  return `${textKey(name)}|${invoice.country ?? ''}`;
}

/**
 * The sellers of several invoices of both corpora; a corpus that is absent is named in `skipped`.
 */
export async function loadRealSellers(corpora: string, publicFolder: string): Promise<{ sellers: Seller[]; skipped: string[] }> {
  const skipped: string[] = [];
  const sellers: Seller[] = [];
  const dev = await loadDevEInvoices(corpora);
  if (!dev) skipped.push(`${path.join(corpora, 'einvoices-dev')} is absent`);
  else {
    const invoices = dev.map((i): RealInvoice => ({ name: i.name, read: () => readFile(i.printedOnly), type: 'application/pdf', expected: i.expected }));
    sellers.push(...bySeller('einvoices-dev', invoices));
  }
  const published = await loadPublicInvoices(publicFolder);
  if (!published) skipped.push(`${publicFolder} is absent`);
  else {
    const invoices = published.map(
      (doc): RealInvoice => ({
        name: doc.name,
        // The printed path: an e-invoice's data must not reach the model.
        read: async () => {
          const bytes = await readFile(doc.file);
          return doc.kind === 'e-invoice' ? Buffer.from(await withoutEmbeddedFiles(bytes)) : bytes;
        },
        type: fileKindOf(doc.file) === 'pdf' ? 'application/pdf' : /\.png$/i.test(doc.file) ? 'image/png' : 'image/jpeg',
        country: doc.country,
        expected: doc.expected,
      }),
    );
    sellers.push(...bySeller('invoices-public', invoices));
  }
  return { sellers, skipped };
}
