/**
 * The labelled invoices as HTML pages (printed to PDF by Chromium): nine layouts that put the
 * vendor, the labels and the totals where real invoicing tools do — header left or right, letter
 * window, footer only, bordered Indian GST grid, labels above values, dotted leaders, numbers and
 * dates inside a sentence.
 */
import type { InvoiceSpec, Money } from './spec.js';

const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** "Label" or "Label:" as the invoice's style has it. */
function lbl(spec: InvoiceSpec, text: string): string {
  return escape(spec.colon && !/[:#]$/.test(text) ? `${text}:` : text);
}

const SENTENCES: Record<string, string> = {
  en: 'Invoice No. {number} dated {date}',
  de: 'Rechnung Nr. {number} vom {date}',
  nl: 'Factuur {number} d.d. {date}',
  fr: 'Facture n°{number} du {date}',
  it: 'Fattura n. {number} del {date}',
  es: 'Factura nº {number} de fecha {date}',
  pt: 'Fatura n.º {number} de {date}',
};

function vendorBlock(spec: InvoiceSpec, align: 'left' | 'right' | 'center' = 'left'): string {
  const { vendor } = spec;
  return `<div class="vendor" style="text-align:${align}">
    <div class="vendor-name">${escape(vendor.name)}</div>
    ${vendor.address.map((line) => `<div>${escape(line)}</div>`).join('')}
    ${vendor.taxId ? `<div>${escape(vendor.taxLabel!)}: ${escape(vendor.taxId)}</div>` : ''}
    <div>${escape(contactLine(spec))}</div>
  </div>`;
}

function contactLine(spec: InvoiceSpec): string {
  const domain = spec.vendor.name.toLowerCase().replace(/[^a-z]+/g, '').slice(0, 14) || 'example';
  return `Tel. +${spec.seed % 90 + 10} ${String(spec.seed).slice(-3)} ${String(spec.seed * 7).slice(-4)} · info@${domain}.com`;
}

function customerBlock(spec: InvoiceSpec, label = true): string {
  const { customer } = spec;
  return `<div class="customer">
    ${label ? `<div class="muted">${lbl(spec, spec.billToLabel)}</div>` : ''}
    <div class="strong">${escape(customer.name)}</div>
    ${customer.address.map((line) => `<div>${escape(line)}</div>`).join('')}
    ${customer.taxId ? `<div>${escape(customer.taxLabel!)}: ${escape(customer.taxId)}</div>` : ''}
  </div>`;
}

type Meta = Array<[string, string]>;

function metaPairs(spec: InvoiceSpec): Meta {
  const pairs: Meta = [
    [spec.number.label, spec.number.printed],
    [spec.date.label, spec.date.printed],
  ];
  if (spec.due) pairs.push([spec.due.label, spec.due.printed]);
  return pairs;
}

/** Label and value on one line, the value right after the label or in a column of its own. */
function metaLines(spec: InvoiceSpec, pairs: Meta, columns: boolean): string {
  if (columns) {
    return `<table class="meta">${pairs.map(([l, v]) => `<tr><td class="muted">${lbl(spec, l)}</td><td class="value">${escape(v)}</td></tr>`).join('')}</table>`;
  }
  return `<div class="meta">${pairs.map(([l, v]) => `<div>${lbl(spec, l)} ${escape(v)}</div>`).join('')}</div>`;
}

/** Labels in a header row, values in the row under them. */
function metaGrid(pairs: Meta): string {
  return `<table class="grid"><tr>${pairs.map(([l]) => `<th>${escape(l)}</th>`).join('')}</tr><tr>${pairs.map(([, v]) => `<td>${escape(v)}</td>`).join('')}</tr></table>`;
}

/** Labels above their values, side by side. */
function metaStacked(pairs: Meta): string {
  return `<div class="stacked">${pairs.map(([l, v]) => `<div><div class="small muted">${escape(l)}</div><div class="value">${escape(v)}</div></div>`).join('')}</div>`;
}

function amountHeader(spec: InvoiceSpec, text: string): string {
  return spec.currencyPlacement === 'header' ? `${text} (${spec.currency})` : text;
}

function itemsTable(spec: InvoiceSpec, bordered: boolean): string {
  const { headers } = spec;
  return `<table class="items${bordered ? ' grid' : ''}">
    <tr><th class="left">${escape(headers.description)}</th><th>${escape(headers.quantity)}</th><th>${escape(amountHeader(spec, headers.unitPrice))}</th><th>${escape(amountHeader(spec, headers.amount))}</th></tr>
    ${spec.items.map((item) => `<tr><td class="left">${escape(item.description)}</td><td>${item.quantity}</td><td>${escape(item.unit.printed)}</td><td>${escape(item.amount.printed)}</td></tr>`).join('')}
  </table>`;
}

function totalRows(spec: InvoiceSpec): Array<[string, Money, boolean]> {
  const rows: Array<[string, Money, boolean]> = [[spec.subtotal.label, spec.subtotal.amount, false]];
  for (const tax of spec.taxes) rows.push([tax.label, tax.amount, false]);
  if (spec.taxTotal) rows.push([spec.taxTotal.label, spec.taxTotal.amount, false]);
  const totalLabel = spec.currencyPlacement === 'header' ? `${spec.total.label} (${spec.currency})` : spec.total.label;
  rows.push([totalLabel, spec.total.amount, true]);
  return rows;
}

function totalsTable(spec: InvoiceSpec, bordered: boolean): string {
  return `<table class="totals${bordered ? ' grid' : ''}">${totalRows(spec)
    .map(([l, m, strong]) => `<tr class="${strong ? 'strong big' : ''}"><td>${lbl(spec, l)}</td><td class="value">${escape(m.printed)}</td></tr>`)
    .join('')}</table>`;
}

/** "Total for this period ........ EUR 12.30": label, dotted leader, amount. */
function totalsLeaders(spec: InvoiceSpec): string {
  return `<div class="leaders">${totalRows(spec)
    .map(([l, m, strong]) => `<div class="leader${strong ? ' strong' : ''}"><span>${escape(l)}</span><span class="dots"> ${'.'.repeat(60)} </span><span>${escape(m.printed)}</span></div>`)
    .join('')}</div>`;
}

function bankBlock(spec: InvoiceSpec): string {
  if (!spec.iban) return '';
  const bic = `${spec.vendor.name.replace(/[^A-Za-z]/g, '').slice(0, 4).toUpperCase().padEnd(4, 'X')}${spec.country}2X`;
  return `<div class="bank"><div class="strong">${escape(spec.wording.bank[spec.seed % spec.wording.bank.length]!)}</div>
    <div>${escape(spec.iban.label.replace(/:$/, ''))}: ${escape(spec.iban.printed)}</div><div>BIC: ${bic}</div></div>`;
}

function notes(spec: InvoiceSpec): string {
  const currencyNote = spec.currencyPlacement === 'note' ? `<div>${escape(spec.wording.currencyNote[spec.seed % spec.wording.currencyNote.length]!.replace('{code}', spec.currency))}</div>` : '';
  return `<div class="notes">${currencyNote}${spec.notes.map((n) => `<div>${escape(n)}</div>`).join('')}</div>`;
}

function style(spec: InvoiceSpec): string {
  return `<style>
    @page { size: ${spec.pageSize}; margin: 0; }
    body { margin: 0; font-family: '${spec.font}'; font-size: ${spec.font.includes('Mono') ? 11 : 12}px; color: #111; }
    .page { padding: 48px 56px; position: relative; min-height: 1000px; box-sizing: border-box; }
    .row { display: flex; justify-content: space-between; align-items: flex-start; gap: 40px; }
    .vendor-name { font-size: 20px; font-weight: bold; margin-bottom: 4px; }
    .title { font-size: 30px; font-weight: bold; letter-spacing: 1px; }
    .muted { color: #555; } .small { font-size: 10px; text-transform: uppercase; }
    .strong { font-weight: bold; } .big { font-size: 15px; }
    table { border-collapse: collapse; }
    .meta td { padding: 2px 0; } .meta td.value { padding-left: 36px; text-align: right; }
    .grid th, .grid td { border: 1px solid #444; padding: 4px 8px; }
    .items { width: 100%; margin: 28px 0 12px; } .items th { text-align: right; border-bottom: 1px solid #333; padding: 6px 4px; }
    .items td { text-align: right; padding: 5px 4px; } .items .left { text-align: left; }
    .totals { margin-left: auto; min-width: 300px; } .totals td { padding: 3px 6px; } .totals td.value { text-align: right; padding-left: 40px; }
    .leaders { margin: 16px 0 0 auto; width: 440px; font-family: 'DejaVu Sans Mono'; }
    .leader { display: flex; white-space: nowrap; overflow: hidden; } .leader .dots { flex: 1; overflow: hidden; color: #333; }
    .stacked { display: flex; gap: 48px; margin: 18px 0; } .stacked .value { font-size: 14px; margin-top: 2px; }
    .notes { margin-top: 36px; color: #444; font-size: 11px; } .bank { margin-top: 28px; }
    .footer { position: absolute; bottom: 36px; left: 56px; right: 56px; border-top: 1px solid #999; padding-top: 6px; font-size: 9.5px; color: #333; }
    .footer3 { display: flex; justify-content: space-between; }
    .sender { font-size: 8.5px; text-decoration: underline; margin-bottom: 6px; }
    .box { border: 1px solid #222; } .box td { border: 1px solid #222; padding: 6px; vertical-align: top; }
  </style>`;
}

const LAYOUTS: Record<InvoiceSpec['layout'], (spec: InvoiceSpec) => string> = {
  classic: (spec) => `
    <div class="row">${vendorBlock(spec)}<div style="text-align:right"><div class="title">${escape(spec.title)}</div>${metaLines(spec, metaPairs(spec), spec.seed % 2 === 0)}</div></div>
    <div style="margin-top:28px">${customerBlock(spec)}</div>
    ${itemsTable(spec, false)}${totalsTable(spec, false)}${bankBlock(spec)}${notes(spec)}`,

  grid: (spec) => `
    <div class="row"><div class="title">${escape(spec.title)}</div>${vendorBlock(spec, 'right')}</div>
    <div style="margin:24px 0">${metaGrid(metaPairs(spec))}</div>
    ${customerBlock(spec)}${itemsTable(spec, true)}${totalsTable(spec, true)}${bankBlock(spec)}${notes(spec)}`,

  letter: (spec) => `
    <div class="row"><div></div>${vendorBlock(spec, 'right')}</div>
    <div class="row" style="margin-top:24px"><div><div class="sender">${escape([spec.vendor.name, ...spec.vendor.address].join(' · '))}</div>${customerBlock(spec, false)}</div>
    ${metaLines(spec, metaPairs(spec), true)}</div>
    <div class="title" style="font-size:18px;margin-top:36px">${escape(spec.title)} ${escape(spec.number.printed)}</div>
    ${itemsTable(spec, false)}${totalsTable(spec, false)}${notes(spec)}
    <div class="footer footer3"><div>${escape(spec.vendor.name)}<br>${spec.vendor.address.map(escape).join('<br>')}</div>
    <div>${spec.vendor.taxId ? `${escape(spec.vendor.taxLabel!)}: ${escape(spec.vendor.taxId)}` : ''}<br>${escape(contactLine(spec))}</div>
    <div>${spec.iban ? `IBAN ${escape(spec.iban.printed)}` : ''}</div></div>`,

  sentence: (spec) => `
    ${vendorBlock(spec)}
    <div style="margin-top:24px" class="row"><div></div>${customerBlock(spec)}</div>
    <div class="title" style="font-size:18px;margin-top:30px">${escape(SENTENCES[spec.language]!.replace('{number}', spec.number.printed).replace('{date}', spec.date.printed))}</div>
    ${spec.due ? `<div style="margin-top:6px">${lbl(spec, spec.due.label)} ${escape(spec.due.printed)}</div>` : ''}
    ${itemsTable(spec, false)}${totalsLeaders(spec)}${bankBlock(spec)}${notes(spec)}`,

  leaders: (spec) => `
    ${vendorBlock(spec, 'center')}
    <div class="title" style="text-align:center;margin:18px 0;font-size:20px">${escape(spec.title)}</div>
    <div class="leaders" style="margin:0 0 18px 0">${metaPairs(spec)
      .map(([l, v]) => `<div class="leader"><span>${escape(l)}</span><span class="dots"> ${'.'.repeat(60)} </span><span>${escape(v)}</span></div>`)
      .join('')}</div>
    ${customerBlock(spec)}${itemsTable(spec, false)}${totalsLeaders(spec)}${bankBlock(spec)}${notes(spec)}`,

  gst: (spec) => `
    <div class="title" style="text-align:center;font-size:18px;margin-bottom:8px">${escape(spec.title)}</div>
    <table class="box" style="width:100%"><tr><td rowspan="2" style="width:50%">${vendorBlock(spec)}</td>
    <td><div class="muted">${escape(spec.number.label)}</div><div class="strong">${escape(spec.number.printed)}</div></td>
    <td><div class="muted">${escape(spec.date.label)}</div><div class="strong">${escape(spec.date.printed)}</div></td></tr>
    <tr><td colspan="2">${spec.due ? `<div class="muted">${escape(spec.due.label)}</div><div>${escape(spec.due.printed)}</div>` : '<div class="muted">Mode/Terms of Payment</div><div>Immediate</div>'}</td></tr>
    <tr><td colspan="3">${customerBlock(spec)}</td></tr></table>
    ${itemsTable(spec, true)}${totalsTable(spec, true)}
    <div style="margin-top:12px">Amount Chargeable (in words): ${escape(spec.currency)} ${escape(amountInWords(spec.total.amount.cents))} Only</div>${bankBlock(spec)}${notes(spec)}`,

  parties: (spec) => `
    <div class="title" style="text-align:center;margin-bottom:20px">${escape(spec.title)}</div>
    <div class="row"><div><div class="muted">${lbl(spec, spec.fromLabel)}</div>${vendorBlock(spec)}</div>${customerBlock(spec)}</div>
    <div style="margin-top:20px">${metaLines(spec, metaPairs(spec), false)}</div>
    ${itemsTable(spec, spec.seed % 2 === 1)}${totalsTable(spec, false)}${bankBlock(spec)}${notes(spec)}`,

  footer: (spec) => `
    <div class="row"><div><div class="title">${escape(spec.title)}</div>${metaLines(spec, metaPairs(spec), spec.seed % 2 === 0)}</div>${customerBlock(spec)}</div>
    ${itemsTable(spec, false)}${totalsTable(spec, false)}${notes(spec)}
    <div class="footer vendor">${escape([spec.vendor.name, ...spec.vendor.address, spec.vendor.taxId ? `${spec.vendor.taxLabel} ${spec.vendor.taxId}` : '', spec.iban ? `IBAN ${spec.iban.printed}` : ''].filter(Boolean).join(' · '))}</div>`,

  stacked: (spec) => `
    <div class="row"><div class="title">${escape(spec.title)}</div><div class="strong" style="font-size:16px">${escape(spec.vendor.name.split(' ')[0]!.toUpperCase())}</div></div>
    ${metaStacked(metaPairs(spec))}
    <div class="row">${vendorBlock(spec)}${customerBlock(spec)}</div>
    <div style="font-size:20px;margin-top:24px" class="strong">${escape(spec.total.amount.printed)}${spec.due ? ` ${escape(spec.due.label.toLowerCase())} ${escape(spec.due.printed)}` : ''}</div>
    ${itemsTable(spec, false)}${totalsTable(spec, false)}${bankBlock(spec)}${notes(spec)}`,
};

/** A number in English words, as Indian invoices print the total ("One Lakh Eighteen Thousand"). */
function amountInWords(cents: number): string {
  const units = ['', 'One', 'Two', 'Three', 'Four', 'Five', 'Six', 'Seven', 'Eight', 'Nine', 'Ten', 'Eleven', 'Twelve', 'Thirteen', 'Fourteen', 'Fifteen', 'Sixteen', 'Seventeen', 'Eighteen', 'Nineteen'];
  const tens = ['', '', 'Twenty', 'Thirty', 'Forty', 'Fifty', 'Sixty', 'Seventy', 'Eighty', 'Ninety'];
  const below100 = (n: number) => (n < 20 ? units[n]! : `${tens[Math.floor(n / 10)]}${n % 10 ? ` ${units[n % 10]}` : ''}`);
  const below1000 = (n: number) => [n >= 100 ? `${units[Math.floor(n / 100)]} Hundred` : '', n % 100 ? below100(n % 100) : ''].filter(Boolean).join(' ');
  let n = Math.floor(cents / 100);
  const parts: string[] = [];
  for (const [size, name] of [[10_000_000, 'Crore'], [100_000, 'Lakh'], [1000, 'Thousand']] as const) {
    if (n >= size) {
      parts.push(`${below1000(Math.floor(n / size))} ${name}`);
      n %= size;
    }
  }
  if (n) parts.push(below1000(n));
  return parts.join(' ') || 'Zero';
}

export function invoiceHtml(spec: InvoiceSpec): string {
  return `<!doctype html><html><head><meta charset="utf-8">${style(spec)}</head><body><div class="page">${LAYOUTS[spec.layout](spec)}</div></body></html>`;
}

