/**
 * Labels of taxes that are not added to a net: the tax a price already contains ("in diesem Beitrag
 * enthaltene Versicherungsteuer", "dont TVA 20 %", "IVA incluido", "davon MwSt.", the ICMS of a
 * Brazilian DANFE, which is always part of the goods' price), the gross price that contains it
 * ("Beitrag inklusive 19 % Versicherungsteuer"), and the taxes the buyer withholds from what it
 * pays ("TOTAL IMP. RETENIDOS", "IVA retenido", "IRPF", "Quellensteuer", "withholding tax").
 * An amount due that adds earlier claims to this invoice's ("zu zahlender Beitrag" after
 * "Ausstehende Forderung") is a weaker total than the invoice's own. Sources are regexes over
 * `plain` text (lower case, no accents); field-choice.ts weighs the amounts against each other
 * (included-taxes.ts).
 */
import type { LabelCategory, LabelDefinition } from './label-definition.js';

/** A tax rate: "19 %", "(20%)", "zu 7 %". */
const RATE = '(?:\\s*[(@]?\\s*(?:@|at|[aà]|zu|al|del)?\\s*\\d{1,2}(?:[.,]\\d{1,3})?\\s*%\\s*\\)?)?';

function labels(category: LabelCategory, strength: number, sources: readonly string[], extra: Partial<LabelDefinition> = {}): LabelDefinition[] {
  return sources.map((source) => ({ category, strength, source, ...extra }));
}

/**
 * The label vocabularies' tax names (invoice-labels.ts's TAX_WORD), passed in to keep one list of
 * them.
 */
export function includedTaxLabels(taxWord: string): LabelDefinition[] {
  const tax = `${taxWord}${RATE}`;
  return [
    // The tax contained in a price: before the tax's name ("enthaltene", "darin enthaltene",
    // "davon", "dont", "of which") or after it ("incluido", "inclusa", "compris", "included",
    // "enthalten"). An amount in brackets after it is the contained tax, not a negative one.
    ...labels(
      'TotalTax',
      1,
      [
        `(?:darin\\s*|hierin\\s*)?enthaltene\\s*${tax}`,
        `davon\\s*${tax}`,
        `dont\\s*${tax}`,
        `of\\s*which\\s*${tax}`,
        `${tax}\\s*(?:incluid[oa]|inclus[oa]|incluse|inclus|compris[e]?|included|enthalten|inbegriffen)`,
        // The DANFE's ICMS ("VALOR DO ICMS"), included in the goods' price; not the ICMS ST
        // (a substitute tax added to it) nor the base it is calculated on.
        'valor\\s*(?:do\\s*)?icms(?!\\s*st\\b)',
      ],
      { included: true },
    ),
    // The gross price that names the tax it contains: "Beitrag inklusive 19 % Versicherungsteuer",
    // "Price incl. 20% VAT", "Prix TVA comprise", "Precio IVA incluido".
    ...labels('InvoiceTotal', 0.95, [
      `(?:beitrag|betrag|preis|pramie|price|premium|prix|precio|preco|prezzo)\\s*(?:inkl\\.?|inklusive|einschl\\.?|einschliesslich|incl\\.?|including|inclusive\\s*of|inclusive|incluant|incluido|incluyendo|incluso|iva\\s*incluido)${RATE}\\s*${taxWord}${RATE}`,
      `(?:prix|price|precio|preco|prezzo)\\s*${taxWord}\\s*(?:comprise?|incluid[oa]|inclus[oa]|included)`,
    ]),
    // What is due may add earlier claims to this invoice's total: the invoice's own total is the
    // one asked for where both are printed.
    ...labels('InvoiceTotal', 0.85, ['zu\\s*zahlender\\s*(?:gesamt)?(?:beitrag|betrag)']),
    // A premium invoice's total ("Rechnungsbeitrag"); its "Gesamtbeitrag" is the premium before or
    // after the insurance tax: the sums decide.
    ...labels('InvoiceTotal', 1, ['rechnungsbeitrag']),
    ...labels('SubTotal', 0.8, ['gesamtbeitrag', 'nettobeitrag'], { orAs: 'InvoiceTotal' }),
    // An earlier claim still open, printed beside this invoice's total: no field of this invoice.
    ...labels('Other', 1, ['ausstehende\\s*forderung(?:en)?', 'offene\\s*forderung(?:en)?', 'base\\s*de\\s*calculo(?:\\s*d[ao]\\s*icms(?:\\s*st)?)?']),
    // Taxes the buyer withholds: the total is what remains after them; they are never the tax.
    ...labels('Withheld', 1, [
      'total\\s*(?:de\\s*)?(?:imp(?:uestos|\\.)?\\s*)?retenid[oa]s',
      'total\\s*(?:das\\s*)?retencoes',
      `(?:iva|isr|irpf|iss|issqn|ir|pis|cofins|csll|inss)\\s*retid[oa]${RATE}`,
      `(?:iva|isr|irpf|iss|pis|cofins|csll|inss)\\s*retenid[oa]${RATE}`,
      `retencion(?:es)?\\s*(?:de\\s*)?(?:iva|isr|irpf)${RATE}`,
      `irpf${RATE}`,
      `ritenuta\\s*d\\s*'?\\s*acconto${RATE}`,
      `retenue\\s*[a&]\\s*la\\s*source${RATE}`,
      `quellensteuer${RATE}`,
      `(?:withholding\\s*tax|tax\\s*withheld|wht)${RATE}`,
    ]),
  ];
}
