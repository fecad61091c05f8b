/**
 * The words invoices and receipts put before their fields, in English, Portuguese, Spanish,
 * French, German, Dutch and Italian (and the Malay of Malaysian receipts), with how strongly each
 * names its field: "Invoice number" certainly names the invoice's id, a bare "No." only may.
 * Sources are regexes over `plain` text (lower case, no accents), matched at a word start;
 * the longest label found at a place wins, so "Total VAT" is not read as "Total".
 */
import { CJK_INVOICE_LABELS } from './cjk-invoice-labels.js';
import { EU_INVOICE_LABELS } from './eu-invoice-labels.js';
import { FISCAL_PRINT_LABELS } from './fiscal-print-labels.js';
import { includedTaxLabels } from './included-tax-labels.js';
import type { LabelCategory, LabelDefinition } from './label-definition.js';

export type { LabelCategory, LabelDefinition } from './label-definition.js';

/** "Number" and its abbreviations; OCR reads the raised o of "nº", "N.º" as a 2 ("Factura n2", "N.2"). */
const NO = '(?:number|numbers|nummer|numero|num\\.?|nr\\.?|no\\.?|n\\s?\\.?\\s?[o°º]\\.?|n\\.?2|n\\.|#|id)';
/** A tax rate after its word: "20%", "(20%)", "@ 9%", "at 20%", "à 20 %", "zu 19 %". */
const RATE = '(?:\\s*[(@]?\\s*(?:@|at|[aà]|zu)?\\s*\\d{1,2}(?:[.,]\\d{1,3})?\\s*%\\s*\\)?)?';
/**
 * A payment by card, as receipts name it ("EC LASTSCHRIFT", "gegeben ec-Karte", "Kreditkarte",
 * "girocard", "Pankkikortti", "Carte bancaire", "Tarjeta", "PIN"): a card pays the amount due
 * exactly, no change given (unlabelled-values.ts).
 */
export const CARD_PAYMENT =
  '(?:gegeben\\s*)?(?:ec\\s*-?\\s*(?:karte|cash|lastschrift)|kredit\\s*-?\\s*karte|kartenzahlung|lastschrift|girocard|(?:debit|credit)\\s*card|mastercard|maestro|amex|(?:pankki|luotto|maksu)?kortti|carte\\s*(?:bancaire|bleue|cb)|tarjeta(?:\\s*(?:de\\s*)?(?:credito|debito))?|pinnen|bankkaart|(?:bank)?kort)';

/** The names of taxes, as a pattern's source (plain text); German insurers charge an insurance tax ("Versicherungsteuer") instead of VAT. */
export const TAX_WORD = '(?:vat|tax|taxes|gst\\s*/\\s*hst|gst|hst|pst|qst|sst|iva|tva|mwst\\.?|ust\\.?|btw|igst|cgst|sgst|utgst|cess|sales\\s*tax|imposto|impuesto|impuestos|imposta|umsatzsteuer|mehrwertsteuer|versicherungs?steuer|dph|moms|alv)';
const CURRENCY_SUFFIX = '(?:\\s*\\(\\s*[a-z$€£₹]{1,3}\\s*\\)|\\s+(?:eur|usd|gbp|inr|myr|rm|chf|rs\\.?))?';

function labels(category: LabelCategory, strength: number, sources: readonly string[]): LabelDefinition[] {
  return sources.map((source) => ({ category, strength, source }));
}

function amountLabels(category: LabelCategory, strength: number, sources: readonly string[]): LabelDefinition[] {
  return labels(category, strength, sources.map((source) => `${source}${CURRENCY_SUFFIX}`));
}

/**
 * OCR of thermal print reads the last letter of "total" as i or 1 ("Totai Incl. of GST"): the
 * word is matched with either, which no other word of these languages spells.
 */
function ocrTolerant(definitions: readonly LabelDefinition[]): LabelDefinition[] {
  return definitions.map((d) => ({ ...d, source: d.source.replace(/total/g, 'tota[l1i]') }));
}

export const INVOICE_LABELS: readonly LabelDefinition[] = ocrTolerant([
  ...labels('InvoiceId', 1, [
    `(?:tax\\s*|commercial\\s*|proforma\\s*)?invoice\\s*${NO}`,
    `inv\\.?\\s*${NO}`,
    `bill\\s*${NO}`,
    `invoice\\s*ref(?:erence)?\\.?`,
    `facture\\s*${NO}`,
    `${NO}\\s*(?:de\\s*)?(?:la\\s*)?facture`,
    'numero\\s*de\\s*facture',
    'ref\\.?\\s*facture',
    // Kinds of invoice glued to the word: "Schlussrechnung Nr.", "Abschlagsrechnung Nr.".
    `(?:schluss|sammel|korrektur)?rechnungs?\\s*-?\\s*${NO}`,
    'rechnungsnummer',
    're\\.?\\s*-?\\s*nr\\.?',
    'belegnummer',
    'belegnr\\.?',
    `factuur\\s*-?\\s*${NO}`,
    'factuurnummer',
    'factuurnr\\.?',
    `fattura\\s*${NO}`,
    `${NO}\\s*(?:di\\s*)?fattura`,
    'numero\\s*(?:di\\s*)?fattura',
    `factura\\s*${NO}`,
    `${NO}\\s*(?:de\\s*)?factura`,
    'numero\\s*de\\s*factura',
    `fatura(?:[-\\s]recibo)?\\s*${NO}`,
    `${NO}\\s*(?:da\\s*)?fatura`,
    `(?:document|documento|doc\\.?)\\s*${NO}`,
    `${NO}\\s*(?:del?\\s*|do\\s*)?(?:document|documento|doc\\.?)`,
    `no\\.?\\s*resit`,
    // A credit note's own number.
    `(?:credit|debit)\\s*(?:note|memo)\\s*${NO}`,
    `gutschrift(?:s)?\\s*-?\\s*${NO}`,
    'gutschriftsnummer',
    `avoir\\s*${NO}`,
    `${NO}\\s*(?:d'|de\\s*l')?avoir`,
    `nota\\s*(?:de|di)\\s*(?:credito|debito)\\s*${NO}`,
    `creditnota\\s*-?\\s*${NO}`,
    'creditnotanummer',
  ]),
  // A receipt's or a ticket's number is the document's own on a till receipt; beside an invoice
  // number (a paid invoice's receipt) the invoice's is the one asked for.
  ...labels('InvoiceId', 0.9, [`(?:receipt|cash\\s*bill|bill|ticket|transaction|trans)\\s*${NO}`]),
  // The same in the languages of the till receipts we read: "Kassenbon Nr:", "Bon-Nr.", "Beleg-Nr.",
  // "Kvitto nr", "Scontrino n."; the Finnish "Kuitti: 1523" names its number with a colon alone
  // ("KAUPPIAAN KUITTI", the merchant's copy, is a title).
  ...labels('InvoiceId', 0.9, [`(?:kassenbon|bon|beleg|kassenbeleg|kvitto|kvittering|scontrino|kuitti)\\s*-?\\s*${NO}`, '(?:kuitti|kvitto|kassenbon|bon)(?=\\s*[:#])']),
  // An order's number is the document's only number on some receipts; beside an invoice number it is another document's.
  ...labels('InvoiceId', 0.6, [`(?:sales\\s*)?order\\s*${NO}`]),
  ...labels('InvoiceId', 0.7, ['(?:tax\\s*)?invoice', 'facture', 'rechnung', 'factuur', 'fattura', 'factura', 'fatura(?:[-\\s]recibo)?', 'receipt', 'bill', '(?:credit|debit)\\s*(?:note|memo)', 'gutschrift', 'nota\\s*de\\s*credito', 'creditnota']),
  // The invoice a credit note corrects: a reference, not the document's own number.
  ...labels('Other', 1, [
    '(?:original|related|corrected|referenced|preceding|previous)\\s*invoice(?:\\s*(?:no\\.?|number|#|date|dated))?',
    'facture\\s*(?:d\\s*\'?\\s*origine|initiale|rectifiee)',
    'factura\\s*(?:original|rectificada)',
    'fatura\\s*(?:original|retificada)',
    '(?:ursprungliche|urspr\\.?|bezugs)\\s*-?\\s*rechnung(?:\\s*-?\\s*nr\\.?)?',
    'oorspronkelijke\\s*factuur',
    // "Gutschrift zur Rechnung Nr. RE-24-00417 vom 12.02.2024", "Credit note for invoice INV-88".
    '(?:zur|zu\\s*der|gem(?:ass|\\.)?|bezuglich(?:\\s*der)?|bzgl\\.?)\\s*rechnung(?:\\s*-?\\s*nr\\.?)?',
    '(?:for|against|re:?|regarding|relating\\s*to)\\s*invoice(?:\\s*(?:no\\.?|number|#))?',
    '(?:sur|relative\\s*[a&]\\s*la)\\s*(?:la\\s*)?facture(?:\\s*n\\s?[o°º]\\.?)?',
    '(?:bij|op)\\s*factuur(?:\\s*(?:nr\\.?|nummer))?',
    'fattura\\s*(?:originale|di\\s*riferimento)',
  ]),
  ...labels('InvoiceId', 0.45, [NO, 'reference', 'ref\\.?', 'referentie', 'referencia', 'riferimento']),
  // A letter's "Our ref" is the sender's number for it (a fee note's or a statement's); "Your ref" is the addressee's.
  ...labels('InvoiceId', 0.6, ['our\\s*ref(?:erence)?\\.?', 'unsere?\\s*zeichen', 'notre\\s*r[eé]f(?:[eé]rence)?\\.?', 'onze\\s*referentie']),

  ...labels('InvoiceDate', 1, [
    '(?:tax\\s*)?invoice\\s*(?:date|dt\\.?)',
    'date\\s*of\\s*(?:issue|invoice|invoicing)',
    '(?:issue|issued|issuing|billing|bill|document|receipt|transaction)\\s*date',
    'date\\s*(?:issued|of\\s*bill)',
    'statement\\s*date',
    'rechnungsdatum',
    're\\.?\\s*-?\\s*datum',
    'ausstellungsdatum',
    'belegdatum',
    'factuur\\s*-?\\s*datum',
    'date\\s*(?:de\\s*)?(?:la\\s*)?(?:facture|facturation)',
    "date\\s*d\\s*'?\\s*emission",
    // "Facture du 12/02/2024" (and "Facture n° 118 du ...", read as the invoice number's label first).
    'facture\\s*du',
    'data\\s*(?:della\\s*|di\\s*)?(?:fattura|emissione|documento)',
    'fecha\\s*(?:de\\s*)?(?:la\\s*)?(?:factura|emision|expedicion)',
    'data\\s*(?:de\\s*|da\\s*|do\\s*)?(?:emissao|fatura|documento)',
  ]),
  // British VAT invoices date the supply as its "tax point": the issue date unless an invoice date is printed too.
  ...labels('InvoiceDate', 0.95, ['tax\\s*point(?:\\s*date)?']),
  ...labels('InvoiceDate', 0.75, ['date', 'datum', 'data', 'fecha', 'dated', 'issued(?:\\s*on)?', 'tarikh', 'date\\s*&\\s*time', 'date/time', 'date\\s*paid', 'paid\\s*on']),

  ...labels('DueDate', 1, [
    '(?:payment\\s*)?due\\s*(?:date|by|on)',
    'date\\s*due',
    'payment\\s*due',
    'pay(?:able)?\\s*by',
    'falligkeit(?:sdatum)?',
    'fallig\\s*(?:am|bis)?',
    'zahlbar\\s*(?:bis|am)',
    'zahlungsziel',
    'vervaldatum',
    'verval\\s*datum',
    'uiterste\\s*betaaldatum',
    'uiterlijk(?:\\s*op)?',
    '(?:te\\s*)?betalen\\s*voor',
    "date\\s*d\\s*'?\\s*echeance",
    'echeance',
    '(?:[a&]\\s*)?(?:payer|regler)\\s*avant(?:\\s*le)?',
    'dat[ae]\\s*limite\\s*de\\s*(?:paiement|pagamento)',
    '(?:data\\s*(?:di\\s*)?)?scadenza(?:\\s*pagamento)?',
    'fecha\\s*(?:de\\s*)?vencimiento',
    'vencimiento',
    'vence',
    'data\\s*(?:de\\s*)?vencimento',
    'vencimento',
  ]),
  // The date in a payment sentence: "Zahlbar innerhalb von 14 Tagen bis zum 11.04.2024", "Payment
  // within 14 days please, i.e. by 5th April 2024", "te betalen vóór de vervaldag (27 september 2024)".
  ...labels('DueDate', 0.9, [
    "(?:payment|payable|pay|zahlbar|zahlung|te\\s*betalen|betaalbaar|betaling|[a&]\\s*regler|[a&]\\s*payer|paiement|pagabile|pagamento|pagadero|pago)(?:\\s+\\S+){0,8}?\\s+(?:bis(?:\\s*(?:zum|spatestens))?|by|before|voor(?:\\s*de\\s*vervaldag)?|avant(?:\\s*le)?|entro(?:\\s*il)?|antes\\s*del?|ate)",
  ]),
  ...labels('DueDate', 0.8, ['due', 'vervaldag']),

  ...amountLabels('SubTotal', 1, [
    'sub\\s*-?\\s*total',
    'subtotaal',
    'subtotale',
    'zwischensumme',
    'sous\\s*-?\\s*total',
    `total\\s*(?:excl\\.?|exkl\\.?|excluding|exclusive\\s*of|before|without|w/o|ohne|ex\\.?)\\s*(?:of\\s*)?${TAX_WORD}?`,
    'total\\s*(?:before\\s*tax(?:es)?|pre-?\\s*tax)',
    // A word or two between: "Total charges excl. VAT", "Total goods before tax".
    `total(?:\\s+[a-z]+){1,2}?\\s*(?:excl\\.?|exkl\\.?|excluding|before|ex\\.?)\\s*(?:of\\s*)?${TAX_WORD}`,
    'total\\s*(?:net|ht|hors\\s*taxes?|sans\\s*tva|s/?\\s*iva|sem\\s*iva|sin\\s*iva|iliquido|netto|imponibile|exclusief\\s*btw|excl\\.?\\s*btw)',
    'net\\s*(?:value|sum)',
    'taxable\\s*(?:value|amount)',
    'amount\\s*(?:before|excl\\.?|excluding)\\s*tax',
    'nettobetrag',
    'netto\\s*-?\\s*warenwert',
    'nettowert',
    'warenwert\\s*netto',
    // Odoo: "Untaxed Amount".
    'untaxed\\s*amount',
    // Portugal: the VAT's base after discounts ("Incidência").
    'incidencia(?:\\s*(?:de\\s*)?iva)?',
    'summe\\s*netto',
    'gesamt\\s*netto',
    'netto\\s*(?:betrag|summe|bedrag|totaal)',
    'totaal\\s*(?:excl\\.?|exclusief)(?:\\s*btw)?',
    'base\\s*(?:imponible|tributavel|de\\s*incidencia)',
    'importe\\s*neto',
    'montant\\s*(?:ht|hors\\s*taxes?)',
    'valor\\s*(?:liquido|sem\\s*iva|s/\\s*iva)',
    'totale\\s*(?:imponibile|netto)',
    'imponibile',
    // Belgian French: "Total HTVA" (hors TVA).
    'total\\s*htva',
    'htva',
    // A distributor's goods before freight and tax: "MERCHANDISE TOTAL", "Total Goods".
    '(?:merchandise|goods|items?|product|products)\\s*(?:sub\\s*-?\\s*)?total',
    'total\\s*(?:merchandise|goods|items?|products)(?!\\s*(?:qty|quantity|count))',
  ]),
  ...amountLabels('SubTotal', 0.6, ['net\\s*total']).map((label) => ({ ...label, orAs: 'InvoiceTotal' as const })),
  // "Net amount": before tax in Europe, what is paid on Indian bills; the sums decide, and the
  // total it names must add up to be taken.
  ...amountLabels('SubTotal', 1, ['net\\s*amount']).map((label) => ({ ...label, orAs: 'InvoiceTotal' as const, orAsShare: 0.5 })),
  ...amountLabels('SubTotal', 0.6, ['netto', 'net']),

  ...amountLabels('TotalTax', 1, [
    `total\\s*${TAX_WORD}`,
    `${TAX_WORD}\\s*(?:amount|total|gesamt|insgesamt|summe)`,
    `montant\\s*(?:de\\s*(?:la\\s*)?)?${TAX_WORD}`,
    `cuota\\s*(?:de\\s*)?${TAX_WORD}`,
    `totaal\\s*${TAX_WORD}`,
    `totale\\s*${TAX_WORD}`,
    `summe\\s*${TAX_WORD}`,
    `importe\\s*(?:del?\\s*)?${TAX_WORD}`,
    `valor\\s*(?:do\\s*)?${TAX_WORD}`,
  ]),
  ...amountLabels('TaxLine', 0.85, [
    // Billing software glues the rate to the tax's name: "IGST18 (18%)".
    `(?:zzgl\\.?\\s*|plus\\s*|incl\\.?\\s*|inkl\\.?\\s*|add\\s*)?${TAX_WORD}(?:\\d{1,2}(?:[.,]\\d{1,2})?(?=\\s*\\())?${RATE}`,
    `(?:zzgl\\.?\\s*|plus\\s*|incl\\.?\\s*|inkl\\.?\\s*)?\\d{1,2}(?:[.,]\\d{1,3})?\\s*%\\s*${TAX_WORD}`,
    // Reverse charge: the tax the customer accounts for, 0.00 on the invoice ("BTW verlegd (0%)").
    `${TAX_WORD}\\s*(?:verlegd|reverse\\s*-?\\s*charged?|autoliquidation|inversione\\s*contabile|inversion\\s*del\\s*sujeto\\s*pasivo)${RATE}`,
  ]),

  // French "à" is "[a&]": OCR often reads the small grave-accented a of "Net à payer" as "&".
  ...amountLabels('InvoiceTotal', 1, [
    'grand\\s*total',
    `total\\s*(?:due|payable|to\\s*pay|amount\\s*(?:due|payable)|[a&]\\s*payer|a\\s*pagar|da\\s*pagare|te\\s*betalen|zu\\s*zahlen|ttc|brutto|general|geral|rounded|nett|(?:for\\s*)?this\\s*(?:period|invoice|bill)|(?:of\\s*)?(?:the\\s*)?invoice|(?:de\\s*la\\s*|da\\s*|della\\s*)?(?:factura|fatura|fattura|facture)|documento|du\\s*document|(?:(?:rm|rs\\.?|eur|usd|\\$)\\s*)?(?:incl\\.?|inc\\.?|including|inclusive|with|com|con|inkl\\.?|avec)\\s*(?:of\\s*)?${TAX_WORD}${RATE})`,
    'total\\s*(?:sales|amount)\\s*(?:\\(?\\s*(?:incl\\.?|inclusive)\\s*(?:of\\s*)?(?:gst|tax|vat)\\s*\\)?)',
    // A few words between "total" and its "including tax": "Total Sales Incl GST", "Total After Adj Incl GST".
    `total(?:\\s+[a-z]+){1,3}?\\s*(?:incl\\.?|inclusive|including)\\s*(?:of\\s*)?${TAX_WORD}${RATE}`,
    'total\\s*amount',
    // A statement's own charges, not the balance it carries: "Total new charges", "Total Charges".
    'total\\s*(?:new\\s*|current\\s*)?charges',
    'net\\s*(?:a|&|to)\\s*pay(?:er)?',
    'nett\\s*(?:total|amount)',
    'rounded\\s*(?:total|amount)',
    'invoice\\s*(?:total|amount)',
    'montant\\s*(?:total|ttc|[a&]\\s*payer|du)',
    'reste\\s*[a&]\\s*payer',
    'gesamtbetrag',
    'gesamtpreis',
    // Belgian French: "Total TVAC" (TVA comprise).
    'total\\s*tvac',
    'tvac',
    'gesamtsumme',
    'rechnungsbetrag',
    'rechnungssumme',
    'endbetrag',
    'rechnungsendbetrag',
    'rechnungsendsumme',
    'endsumme',
    'bruttobetrag',
    // A credit note's total.
    'gutschriftsbetrag',
    'gutschrift\\s*(?:gesamt|brutto)',
    'total\\s*credit(?:\\s*note)?',
    'credit\\s*(?:note\\s*)?(?:total|amount)',
    "montant\\s*(?:total\\s*)?(?:de\\s*l\\s*'?\\s*)?avoir",
    'creditbedrag',
    'totaal\\s*creditnota',
    'gesamt\\s*brutto',
    'zahlbetrag',
    'zu\\s*zahlen',
    'totaalbedrag',
    'totaal\\s*(?:te\\s*betalen|incl\\.?(?:\\s*btw)?|inclusief(?:\\s*btw)?)',
    'te\\s*betalen',
    'totale\\s*(?:fattura|documento|da\\s*pagare|complessivo|generale|ivato)',
    'netto\\s*a\\s*pagare',
    'importe\\s*total',
    'total\\s*factura',
    'valor\\s*(?:total|a\\s*pagar)',
    'jumlah(?:\\s*(?:besar|keseluruhan))?',
  ]),
  // What is due may be more than this invoice's total (a balance brought forward) or less (a
  // deposit paid): where both are printed, the invoice's own total is the one asked for.
  ...amountLabels('InvoiceTotal', 0.95, ['amount\\s*(?:due|payable|to\\s*pay)', 'balance\\s*(?:due|payable|to\\s*pay)']).map((label) => ({ ...label, due: true })),
  // A bill or statement (utility, telecom, insurance): what this bill charges, beside a previous
  // balance, the payments received and the balance carried forward, which are never its total.
  ...amountLabels('InvoiceTotal', 1, [
    'new\\s*charges(?:\\s*(?:this|for\\s*this)\\s*(?:bill|period|statement))?',
    'current\\s*charges',
    'charges\\s*(?:for\\s*)?this\\s*(?:bill|period|statement)',
    'zu\\s*zahlender\\s*betrag',
    'montant\\s*de\\s*(?:la\\s*|cette\\s*)?facture',
  ]),
  // A bill paid by direct debit prints the amount its customer's bank will pay: "Pre-authorized
  // Withdrawal: 200.01", "Amount to be debited", "Montant prélevé".
  ...amountLabels('InvoiceTotal', 0.95, [
    'pre\\s*-?\\s*authori[sz]ed\\s*(?:withdrawal|debit|payment)(?:\\s*amount)?',
    'amount\\s*to\\s*be\\s*(?:withdrawn|debited)',
    'direct\\s*debit\\s*amount',
    'montant\\s*(?:preleve|a\\s*prelever)',
  ]).map((label) => ({ ...label, due: true })),
  ...amountLabels('InvoiceTotal', 0.8, ['total', 'totaal', 'totale', 'summe', 'gesamt', 'importe', 'montant', 'brutto', 'bruto']),
  ...amountLabels('InvoiceTotal', 0.45, ['amount', 'betrag', 'bedrag', 'valor']),

  ...amountLabels('Tendered', 1, ['cash(?:\\s*(?:tendered|received|paid))?', 'tendered', 'accepted(?:\\s*(?:total|amount))?', 'amount\\s*(?:tendered|received|paid)', 'paid', 'tunai', 'card', 'visa', 'master\\s*card']),
  // Payment lines of the till receipts of other countries: cash given ("gegeben", "bar",
  // "käteinen", "espèces", "efectivo", "contant") and card payments (CARD_PAYMENT).
  ...amountLabels('Tendered', 1, ['gegeben(?:\\s*bar)?', 'bar', 'kateinen', 'especes', 'efectivo', 'contant', 'contanti', 'kontant']),
  ...amountLabels('Tendered', 1, [CARD_PAYMENT]),
  ...amountLabels('Change', 1, ['change(?:\\s*due)?', 'baki', 'wechselgeld', 'rendu', 'monnaie', 'cambio', 'troco', 'resto']),
  ...amountLabels('Rounding', 1, ['round(?:ing)?(?:\\s*(?:adj(?:ustment)?\\.?|amount))?', 'rounding\\s*adj\\.?', 'pengenapan']),
  ...labels('Other', 1, [
    'total\\s*(?:qty|quantity|items?|units?|pcs|pieces|discount|savings|saving|weight|hours|pages|no\\.?\\s*of\\s*items?|item\\(s\\)|paid|tendered)',
    'total\\s*(?:amount\\s*)?in\\s*words',
    'amount\\s*(?:chargeable\\s*)?(?:\\(?\\s*)?in\\s*words',
    'item\\s*count',
    // Payment terms, not a receipt's number: "Terms: Due on Receipt".
    '(?:due|payable)\\s*(?:up)?on\\s*receipt',
    // A party's number or code, not its name: "Customer ID", "Supplier No.", "Kunden-Nr.".
    '(?:customer|client|account|supplier|vendor|kunden|klant|cliente|lieferanten)\\s*-?\\s*(?:id|no\\.?|nr\\.?|number|nummer|numero|code|ref(?:erence)?\\.?|#|acct\\.?|account)',
    "(?:cod(?:ice)?|codigo|code|n[o°º]|num(?:ero)?|ref(?:erence)?)\\.?\\s*(?:du\\s*|del\\s*|de\\s*)?(?:cliente|client|customer|klant|kunde)",
    // A party's order, not the party: "Buyer's Order No.", "Customer PO".
    "(?:buyer|customer|client)(?:\\s*['’]\\s*s)?\\s*(?:order|p\\.?\\s*o\\.?)(?:\\s*(?:no\\.?|number|#|ref\\.?))?",
    '(?:your|ihr|ihre|votre|uw)\\s*(?:ref(?:erence|erentie)?\\.?|zeichen|r[eé]f(?:[eé]rence)?\\.?)',
    // The goods' transport papers, not the invoice: "E-Way Bill No.", "Dispatch Doc No.", "Delivery Note".
    '(?:e\\s*-?\\s*way|way|lorry\\s*receipt|lr)\\s*bill(?:\\s*(?:no\\.?|number|#))?',
    '(?:dispatch|despatch)\\s*doc(?:ument)?(?:\\s*(?:no\\.?|number|#))?',
    'delivery\\s*(?:note|challan)(?:\\s*(?:no\\.?|number|#|date))?',
    // The Italian e-invoice exchange's code of the addressee's mailbox, not its name.
    'codice\\s*(?:destinatario|sdi|univoco)',
    'kundennummer',
    'klantnummer',
    'qty',
    'discount',
    'amount\\s*(?:saved|paid|received)',
    // A statement's earlier figures, never this bill's total nor its number.
    'previous\\s*(?:balance|bill(?:\\s*amount)?|statement(?:\\s*balance)?|amount\\s*billed)',
    '(?:payments?|paiements?)\\s*(?:received|re[cç]us?)(?:\\s*[-–]?\\s*thank\\s*you)?',
    'last\\s*payment',
    'adjustments?\\s*since\\s*last\\s*bill',
    'solde\\s*(?:precedent|anterieur)',
    'vorsaldo',
    'zahlungseingang',
    'gst\\s*summary',
    // Charges a carrier passes on ("Customs Tax", "Customs Duties"): items of the bill, not its tax.
    'customs\\s*(?:tax(?:es)?|dut(?:y|ies)|charges?|fees?)',
    'tax\\s*(?:code|rate|invoice)',
  ]),
  // The balance a statement carries forward: not zero, what is due is more than this bill's charges.
  ...labels('Other', 1, ['balance\\s*(?:forward|brought\\s*forward|carried\\s*forward)', 'solde\\s*reporte', 'saldovortrag']).map((label) => ({ ...label, carried: true })),

  ...labels('Currency', 1, ['currency', 'moeda', 'devise', 'wahrung', 'moneda', 'valuta']),
  ...labels('IBAN', 1, ['iban(?:\\s*(?:no|nr|number)\\.?)?']),

  // A bill's issuer: "ENERGY SERVICE PROVIDER", "Service provider", "Your supplier".
  ...labels('VendorName', 0.8, ['(?:energy\\s*|electricity\\s*|utility\\s*|telecom\\s*)?service\\s*provider', 'your\\s*(?:energy\\s*)?(?:supplier|provider)']),
  ...labels('VendorName', 1, ['(?:bill(?:ed)?\\s*)?from', 'seller', 'supplier', 'vendor', 'issued\\s*by', 'sold\\s*by', 'fornecedor', 'emitente', 'emisor', 'proveedor', 'fournisseur', 'vendeur', 'emetteur', 'lieferant', 'rechnungssteller', 'absender', '(?:rechnungs)?aussteller', 'afzender', 'mittente', 'remitente', 'remetente', 'expediteur', 'leverancier', 'fornitore', 'cedente(?:\\s*/\\s*prestatore)?', 'merchant', 'company\\s*name', 'pay(?:able)?\\s*to', 'remit\\s*to', 'payee']),
  ...labels('CustomerName', 1, [
    '(?:bill(?:ed)?|invoice(?:d)?|sold|charge)\\s*to',
    'buyer',
    'purchaser',
    'recipient',
    'adquirente',
    'destinat(?:ario|aire)s?',
    'faturar\\s*a',
    'exmo\\.?(?:\\s*\\(?s\\)?\\s*sr\\.?\\s*\\(?s\\)?)?',
    'factur(?:e|er|ar)\\s*a',
    'factuur\\s*aan',
    'adresse\\s*de\\s*facturation',
    '(?:billing|invoice)\\s*address',
    // A utility's or a telephone company's statement names the customer it served.
    'service\\s*(?:for|to|address)',
    'account\\s*holder',
    'rechnungsempfanger',
    // A letter's two parties side by side: "Empfänger" beside "Aussteller", "Ontvanger" beside "Afzender".
    'empfanger',
    'ontvanger',
    'rechnungsadresse',
    'kunde',
    'factuuradres',
    'facturatie\\s*-?\\s*adres',
    // Italian e-invoices head the parties "Cedente / Prestatore" and "Cessionario / Committente".
    'cessionario(?:\\s*/?\\s*committente)?',
    'klant',
    'debiteur',
    'spett\\.?\\s*le',
    'intestatario',
    'datos\\s*del\\s*cliente',
  ]),
  // The customer may be another than the party billed (a hotel's guest, a firm's client): where
  // both are printed, the billed one.
  ...labels('CustomerName', 0.85, ['customer(?:\\s*name)?', 'client(?:e)?(?:\\s*name)?', 'patient\\s*name', 'responsible\\s*party(?:\\s*/\\s*patient)?', 'guarantor']),
  ...labels('CustomerName', 0.5, ['ship\\s*to', 'deliver(?:y)?\\s*to', '(?:delivery|shipping)\\s*address', 'lever(?:ings)?\\s*-?\\s*adres', 'lieferadresse', 'lieferanschrift', 'adresse\\s*de\\s*livraison', 'livr(?:er|aison)\\s*a', 'aan', 'an']),
  // "To:" opening a line, its colon there: the addressee of a simple invoice ("From: ... To: ...").
  ...labels('CustomerName', 0.6, ['to(?=\\s*:)']),

  ...labels('TaxId', 1, [
    `(?:vat|tax|gst|sst|tin|hst|abn|ust|btw|tva|iva|mwst)\\s*-?\\s*(?:reg(?:istration)?\\.?\\s*)?${NO}`,
    '(?:vat|gst|sst)\\s*reg(?:istration)?\\.?',
    // Canada: "GST/HST Reg. No.", "TAX REGISTRATION:", "BN 12345 6789": the business number the
    // sales taxes are registered under.
    `(?:tax|hst|gst\\s*/\\s*hst|qst|pst)\\s*-?\\s*reg(?:istration)?\\.?(?:\\s*${NO})?`,
    `gst\\s*/\\s*hst\\s*${NO}`,
    'bn(?=\\s*(?:no\\.?|#)?\\s*:?\\s*\\d)',
    'gstin(?:\\s*/\\s*uin)?',
    // US: "Federal Tax I.D.", "Fed. ID", "Tax ID No." (the employer identification number).
    '(?:federal|fed\\.?)\\s*(?:tax\\s*)?i\\.?\\s*d\\.?(?:\\s*(?:no\\.?|#))?',
    'tax\\s*i\\.?\\s*d\\.?(?:\\s*(?:no\\.?|#))?',
    'ein',
    // Australia: "ABN: 16 112 221 123" (the Australian Business Number the GST is registered under).
    'abn',
    'vat',
    // "USt-IdNr." as OCR reads it too: its capital I is often an l ("USt-ldNr.").
    'ust\\.?\\s*-?\\s*[il1]d\\.?\\s*-?\\s*(?:nr\\.?)?',
    'uid(?:\\s*-?\\s*nr\\.?)?',
    // Swiss letterheads print "MWST CHE-116.281.710 MWST": the word alone before the number.
    'mwst(?:\\s*-?\\s*nr\\.?)?',
    'btw\\s*-?\\s*(?:nr\\.?|nummer|id)?',
    'ondernemingsnummer',
    `${NO}?\\s*tva(?:\\s*intra(?:com(?:munautaire)?)?\\.?)?`,
    'tva\\s*intra(?:com(?:munautaire)?)?\\.?',
    'p\\s*\\.?\\s*iva',
    'partita\\s*iva',
    'c\\.?\\s*f\\.?\\s*/\\s*p\\s*\\.?\\s*iva',
    'codice\\s*fiscale',
    'cif(?:\\s*/\\s*nif)?',
    'nif(?:\\s*-\\s*iva)?',
    'nipc',
    `${NO}?\\s*(?:de\\s*)?contribuinte`,
    // Brazil's company and person numbers ("CNPJ / CPF", "C.N.P.J."), Mexico's RFC, Japan's
    // qualified invoice issuer's registration number (登録番号): national-tax-ids.ts reads them.
    'c\\.?\\s*n\\.?\\s*p\\.?\\s*j\\.?',
    'c\\.?\\s*p\\.?\\s*f\\.?',
    'r\\.?\\s*f\\.?\\s*c\\.?',
    '(?:適格請求書発行事業者)?登録番号',
  ]),
  // A French company's registration number: its tax id when no VAT number is printed, else the VAT number is.
  ...labels('TaxId', 0.7, ['siret']),
  ...includedTaxLabels(TAX_WORD),
  ...EU_INVOICE_LABELS,
  ...FISCAL_PRINT_LABELS,
  ...CJK_INVOICE_LABELS,
]);
