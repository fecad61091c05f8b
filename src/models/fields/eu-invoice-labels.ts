/**
 * Labels of the EN 16931 business terms as invoices print them in the languages of the EU beyond
 * those of invoice-labels.ts's first vocabulary (Czech and Slovak, Polish, Danish and Norwegian,
 * Swedish, Finnish, Hungarian) and the German, French, Dutch, Italian, Spanish and Portuguese
 * words that vocabulary lacked; and the labels of what is printed beside those terms and is not
 * one of them: the other dates (delivery, service period, order, print), the other numbers
 * (order, customer, delivery note, contract), the amounts that are not the total (the amount
 * already paid, an allowances' sum), and the tax office's registration numbers (BT-32), which are
 * not the VAT id (BT-31). Sources are regexes over `plain` text (lower case, no accents; ł, ø
 * and æ stay as they are).
 */
import type { LabelCategory, LabelDefinition } from './label-definition.js';

function labels(category: LabelCategory, strength: number, sources: readonly string[]): LabelDefinition[] {
  return sources.map((source) => ({ category, strength, source }));
}

/** "Number" in these languages: "Nr.", "č.", "číslo", "nro", "numer", "nummer", "sz.". */
const NUMBER = '(?:nr\\.?|c\\.|cislo|nro\\.?|numer|nummer|numero|no\\.?|sz\\.?|sorszama|#)';

/** Separators inside a compound label: "Beleg-Nr", "Rechnungs-Datum", "USt.-Id.-Nr.". */
const J = '\\s*-?\\s*';

/** Words for the tax (VAT) in the added languages. */
const EU_TAX = '(?:dph|moms|alv|afa|vat|ust\\.?|mwst\\.?|umsatzsteuer|tva|btw|iva)';

export const EU_INVOICE_LABELS: readonly LabelDefinition[] = [
  // BT-1, the invoice number.
  ...labels('InvoiceId', 1, [
    `beleg${J}${NUMBER}`,
    `rechnungs${J}nummer`,
    // The kind of invoice before "Nr.", a word and its type code in brackets between
    // ("Handelsrechnung (380) Nr.", "Schlussrechnung Bau (877) Nr.", "Abschlagsrechnung Nr.").
    `[a-z]*rechnung(?:\\s+[a-z]{2,12})?(?:\\s*\\(\\d{3}\\))?\\s*${NUMBER}`,
    `faktura(?:\\s*-?\\s*danovy\\s*doklad)?(?:\\s*vat)?\\s*${NUMBER}`,
    `${NUMBER}\\s*(?:faktury|dokladu)`,
    `danovy\\s*doklad\\s*${NUMBER}`,
    'fakturanr\\.?',
    'fakturanummer',
    `laskun?\\s*${NUMBER}`,
    'laskunumero',
    'szamlaszam',
    `szamla\\s*${NUMBER}`,
  ]),
  ...labels('InvoiceId', 0.7, ['faktura', 'lasku', 'szamla', 'rachunek', 'danovy\\s*doklad']),
  // "Number" alone, as the first vocabulary's bare "No." / "Nummer": weak, beaten by any named number.
  ...labels('InvoiceId', 0.45, ['cislo', 'numer']),

  // BT-2, the issue date.
  ...labels('InvoiceDate', 1, [
    `beleg${J}datum`,
    `rechnungs${J}datum`,
    'datum\\s*(?:der\\s*)?rechnung',
    'datum\\s*vystaveni',
    'data\\s*wystawienia',
    'fakturadato',
    'fakturadatum',
    'fakturadag',
    'laskun\\s*(?:paivamaara|pvm\\.?)',
    'laskutuspaiva',
    'szamla\\s*kelte',
    'kiallitas\\s*(?:datuma|kelte)',
    'factuurdatum',
    'date\\s*de\\s*(?:la\\s*)?piece',
  ]),
  ...labels('InvoiceDate', 0.75, ['dato', 'paivays', 'paivamaara', 'pvm\\.?', 'kelte', 'vystaveno']),

  // Dates that are not the issue date: delivery or service (BT-72), its period (BG-14), the
  // order's, a delivery note's, the print date of a rendering.
  ...labels('Other', 1, [
    `(?:liefer|leistungs|lieferschein|bestell|auftrags?|versand|druck|erstellungs)${J}datum(?:${J}lief)?`,
    `liefer${J}(?:und|u\\.|/)${J}leistungs${J}datum`,
    `(?:leistungs|liefer|abrechnungs|rechnungs)${J}zeitraum`,
    // "Delv. Date", "Dlv. Date", "Del. Date": the delivery date abbreviated; "Coll. Date" a return's collection.
    '(?:deli?v(?:ery)?|dlv|del|coll(?:ection)?|shipping|ship|supply|service|order|print(?:ing)?|dispatch)\\.?\\s*date',
    'date\\s*of\\s*(?:delivery|supply|service|order|shipment|dispatch)',
    '(?:service|billing|invoice|invoicing|accounting)\\s*period',
    'printed\\s*(?:on|at)',
    'gedruckt\\s*am',
    'date\\s*(?:de\\s*)?(?:livraison|prestation|commande|d\\s*\'?\\s*impression|d\\s*\'?\\s*expedition)',
    'periode\\s*(?:de\\s*)?(?:facturation|de\\s*prestation)',
    '(?:lever|leverings|bestel|order)datum',
    'data\\s*(?:di\\s*|de\\s*|da\\s*)?(?:consegna|spedizione|ordine|entrega|encomenda|pedido)',
    'fecha\\s*(?:de\\s*)?(?:entrega|pedido|envio)',
    'datum\\s*(?:dodani|objednavky|uskutecneni\\s*zdan(?:itelneho|\\.)?\\s*plneni|zdan(?:itelneho|\\.)?\\s*plneni|plneni)',
    'duzp',
    'data\\s*(?:dostawy|sprzedazy|zamowienia|wykonania\\s*uslugi)',
    '(?:leverings|ordre|bestillings)dato',
    '(?:leverans|order|bestallnings)datum',
    '(?:toimitus|tilaus)(?:paiva|pvm)',
    'teljesites\\s*(?:datuma|kelte)',
    // The date of the invoice another one corrects or refers to ("Date de facture associée").
    "date\\s*(?:de\\s*(?:la\\s*)?)?facture\\s*(?:associee|d\\s*'?\\s*origine|initiale|rectifiee|precedente|de\\s*reference)",
    'datum\\s*der\\s*(?:ursprunglichen|urspr\\.?|bezogenen|original)\\s*-?\\s*rechnung',
    '(?:ursprungs|original|bezugs)\\s*-?\\s*rechnungsdatum',
    'datum\\s*(?:van\\s*de\\s*)?oorspronkelijke\\s*factuur',
    'oorspronkelijke\\s*factuurdatum',
    'data\\s*(?:della\\s*)?fattura\\s*(?:originale|di\\s*riferimento|collegata)',
    'fecha\\s*(?:de\\s*(?:la\\s*)?)?factura\\s*(?:original|rectificada|de\\s*referencia)',
    'data\\s*(?:da\\s*)?fatura\\s*(?:original|retificada|de\\s*referencia)',
    // The start and end of a service period, its own dates.
    'date\\s*(?:de\\s*)?(?:debut|fin)(?:\\s*(?:de\\s*)?(?:la\\s*)?(?:prestation|periode|service|contrat|validite))?',
    '(?:service|period|billing|contract)?\\s*(?:start|end)\\s*date',
    '(?:leistungs|abrechnungs|vertrags)\\s*-?\\s*(?:beginn|ende)',
    '(?:begin|eind)\\s*-?\\s*datum',
    'data\\s*(?:di\\s*|de\\s*)?(?:inizio|fine|inicio|fim)',
    'fecha\\s*(?:de\\s*)?(?:inicio|fin)',
    // Stylesheets that render an e-invoice print their own version and date above it.
    '(?:stylesheet|style\\s*sheet|xslt?)\\s*-?\\s*version',
  ]),

  // Due date.
  ...labels('DueDate', 1, [
    'datum\\s*splatnosti',
    'splatnost',
    'termin\\s*(?:p[lł]atnosci|zap[lł]aty)',
    'forfaldsdato',
    'forfalds?dag',
    'betalingsfrist',
    'sidste\\s*rettidige\\s*betalingsdag',
    'forfallodatum',
    'forfallodag',
    'erapaiva',
    'fizetesi\\s*hatarido',
    'date\\s*limite\\s*de\\s*reglement',
  ]),

  // BT-27, the seller, and the buyer (BT-44).
  ...labels('VendorName', 1, [
    'rechnungsersteller',
    'verkaufer',
    'auftragnehmer',
    'leistungserbringer',
    'dodavatel',
    'prodavajici',
    'sprzedawca',
    'wystawca',
    'leverand[oø]r',
    'saljare',
    'leverantor',
    'myyja',
    'laskuttaja',
    'elado',
    'szallito',
    'prestataire',
    'venditore',
    'prestador(?:\\s*de\\s*servicos)?',
  ]),
  ...labels('CustomerName', 1, [
    'kaufer(?:\\s*/\\s*leistungsempfanger)?',
    'leistungsempfanger',
    'auftraggeber',
    'odberatel',
    'kupujici',
    'nabywca',
    'kober',
    'kopare',
    'ostaja',
    'vevo',
    'acquirente',
    'comprador',
    'acheteur',
    'afnemer',
  ]),
  ...labels('CustomerName', 0.85, ['asiakas', 'kund', 'odbiorca', 'p[lł]atnik']),

  // The name row of a party's block ("Verkäufer" / "Nummer: 549910" / "Name: Rohstoff AG"): the
  // party is the block's heading's.
  ...labels('PartyName', 0.95, [
    '(?:company\\s*|trade\\s*|legal\\s*|business\\s*|registered\\s*)?name',
    'firma',
    'firmenname',
    'nom',
    'raison\\s*sociale',
    '(?:bedrijfs)?naam',
    'nome',
    'ragione\\s*sociale',
    'nombre',
    'razon\\s*social',
    'denominacao(?:\\s*social)?',
    'nazev(?:\\s*firmy)?',
    'nazwa(?:\\s*firmy)?',
    'navn',
    'namn',
    'nimi',
    'nev',
  ]),

  // BT-31, the seller's VAT id.
  ...labels('TaxId', 1, [
    `ust${J}\\.?${J}id(?:ent)?\\.?${J}(?:nr|nummer|no)?\\.?`,
    `umsatzsteuer${J}id(?:entifikations)?${J}(?:nr\\.?|nummer)`,
    'vat\\s*(?:id(?:entification)?|identification\\s*number|no\\.?)',
    'dic',
    'ic\\s*dph',
    'nip',
    `cvr${J}(?:nr\\.?|nummer)?`,
    `se${J}nr\\.?`,
    `moms${J}(?:reg(?:istrerings)?|registrering)?${J}(?:nr\\.?|nummer)`,
    `alv${J}(?:nro|numero|tunniste)`,
    'kozossegi\\s*adoszam',
    `btw${J}(?:identificatie)?nummer`,
    `${NUMBER}?\\s*(?:de\\s*)?tva\\s*intracommunautaire`,
    'numero\\s*(?:de\\s*)?tva',
  ]),

  // BT-32 and the registers: a tax office's or a company register's number, never the VAT id.
  ...labels('TaxRegistration', 1, [
    `steuer${J}(?:nr\\.?|nummer)`,
    'steuernummer',
    'st\\.?\\s*-?\\s*nr\\.?',
    'finanzamt',
    `handels${J}reg(?:ister)?\\.?(?:${J}(?:nr\\.?|nummer))?`,
    `hrb(?:${J}nr\\.?)?`,
    'registergericht',
    'amtsgericht',
    'siret',
    'siren',
    'rcs',
    'ape',
    `kvk(?:${J}(?:nr\\.?|nummer))?`,
    'kamer\\s*van\\s*koophandel',
    'ondernemingsnummer',
    'codice\\s*fiscale',
    'rea',
    'ic(?:o)?',
    'regon',
    'krs',
    'y\\s*-?\\s*tunnus',
    'cegjegyzekszam',
    'adoszam',
    '(?:company|business|firm)\\s*(?:reg(?:istration)?\\.?\\s*)?(?:no\\.?|number|id)',
    'reg(?:istration)?\\.?\\s*(?:no\\.?|number)',
    'registernummer',
  ]),

  // BT-109, the total without VAT.
  ...labels('SubTotal', 1, [
    `(?:rechnungs|gesamt)?summe\\s*(?:ohne|exkl\\.?|excl\\.?|zzgl\\.?)\\s*${EU_TAX}`,
    'nettosumme',
    `netto${J}gesamt(?:betrag)?`,
    `gesamt${J}netto(?:betrag|summe)?`,
    'celkem\\s*bez\\s*dph',
    'zaklad\\s*dane',
    'wartosc\\s*netto',
    'razem\\s*netto',
    `(?:total|i\\s*alt|summa|sum)\\s*(?:ekskl\\.?|exkl\\.?|excl\\.?|uden|utan)\\s*(?:${EU_TAX})`,
    'veroton\\s*(?:hinta|summa|yhteensa)',
    'yhteensa\\s*ilman\\s*alv',
    'netto\\s*osszeg',
    'osszesen\\s*netto',
  ]),
  // BT-106, the sum of the lines' net amounts: the total without VAT unless allowances or charges follow.
  ...labels('SubTotal', 0.75, ['positionssumme', 'summe\\s*(?:der\\s*)?positionen', 'warenwert', 'sum\\s*of\\s*(?:line|item)s?(?:\\s*net)?(?:\\s*amounts?)?', 'total\\s*des\\s*lignes', 'som\\s*van\\s*de\\s*regels']),

  // BT-110, the total VAT.
  ...labels('TotalTax', 1, [
    `(?:${EU_TAX}|steuer|umsatzsteuer)\\s*-?\\s*(?:betrag|bedrag|belob|belopp|castka|kwota|osszeg|maara|importo)(?:\\s*gesamt)?`,
    'steuerbetrag',
    'umsatzsteuerbetrag',
    `(?:summe|gesamt)\\s*(?:der\\s*)?${EU_TAX}`,
    'dph\\s*celkem',
    'celkem\\s*dph',
    'kwota\\s*vat',
    'razem\\s*vat',
    'momsbel(?:ob|opp)',
    'moms\\s*i\\s*alt',
    'alv\\s*yhteensa',
    'afa\\s*osszesen',
  ]),

  // BT-112, the total with VAT.
  ...labels('InvoiceTotal', 1, [
    'bruttosumme',
    `(?:rechnungs|gesamt)?summe\\s*(?:brutto|inkl\\.?\\s*${EU_TAX}|incl\\.?\\s*${EU_TAX})`,
    `gesamt${J}brutto(?:betrag|summe)?`,
    'celkem\\s*(?:s|vcetne)\\s*dph',
    'wartosc\\s*brutto',
    'razem\\s*brutto',
    `(?:total|i\\s*alt|summa)\\s*(?:inkl\\.?|incl\\.?|med)\\s*${EU_TAX}`,
    'loppusumma',
    'verollinen\\s*(?:hinta|summa|yhteensa)',
    'brutto\\s*osszeg',
    'vegosszeg',
    'totaal\\s*factuur(?:bedrag)?',
  ]),
  // BT-115, the amount due: the total unless an amount was paid before.
  ...labels('InvoiceTotal', 0.9, ['celkem\\s*k\\s*uhrade', 'k\\s*uhrade', 'do\\s*zap[lł]aty', 'razem\\s*do\\s*zap[lł]aty', 'at\\s*betale', 'att\\s*betala', 'summa\\s*att\\s*betala', 'maksettava(?:\\s*yhteensa)?', 'fizetendo(?:\\s*osszeg)?', 'restbetrag', 'offener\\s*betrag', 'noch\\s*zu\\s*zahlen']),
  ...labels('InvoiceTotal', 0.8, ['celkem', 'razem', 'i\\s*alt', 'summa', 'yhteensa', 'osszesen', 'totalt']),
  // A card slip's amount of the sale: "OSTO EUR 18,00" (Finnish), "KÖP" (Swedish), "KJØP" (Norwegian).
  ...labels('InvoiceTotal', 0.8, ['osto', 'kop', 'kjop']),
  // The net alone, as "netto" is (invoice-labels.ts): the Finnish "Veroton" (before tax) of a receipt's tax lines.
  ...labels('SubTotal', 0.6, ['veroton']),

  // Amounts that are not the total: BT-113, paid before (a deposit, a prepayment), and the sums of allowances or charges.
  ...labels('Other', 1, [
    '(?:erhaltene|geleistete)\\s*(?:an|voraus|abschlags)zahlungen?',
    '(?:an|voraus|abschlags)zahlungen?',
    'bereits\\s*(?:gezahlt|bezahlt|geleistet)',
    '(?:prepaid|paid)\\s*amount',
    'prepayments?',
    'deposits?\\s*(?:paid|received)',
    'acomptes?(?:\\s*(?:verses?|recus?))?',
    'deja\\s*(?:paye|regle|verse)',
    '(?:vooruit|aan)betaling(?:en)?',
    'reeds\\s*betaald',
    'acconti?(?:\\s*versati?)?',
    'anticipos?',
    'adiantamentos?',
    'zaloha',
    'zaplaceno',
    'zaliczka',
    `(?:gesamtbetrag|summe)\\s*(?:der\\s*)?(?:zuschlage|abschlage|rabatte|nachlasse)`,
    'total\\s*(?:des\\s*)?(?:remises|frais)',
    'sum\\s*of\\s*(?:allowances|charges)',
  ]),

  // Numbers that are not the invoice's: the order's, the customer's, the supplier's, a delivery note's, a contract's, an article's.
  ...labels('Other', 1, [
    `(?:bestell|auftrags?|lieferschein|vertrags|versicherungsschein|kunden|lieferanten|lief|kreditoren|debitoren|art(?:ikel)?|konto)${J}${NUMBER}(?:${J}lief)?`,
    `bestellung\\s*${NUMBER}(?:\\s*kunde)?`,
    'vsnr',
    '(?:gln|gtin|ean)',
    `(?:order|purchase\\s*order|po|contract|delivery\\s*note|article|item)\\s*${NUMBER}`,
    `${NUMBER}\\s*(?:de\\s*)?(?:commande|bon\\s*de\\s*commande|contrat|bon\\s*de\\s*livraison|client)`,
    '(?:bestel|order|klant|contract)nummer',
    `${NUMBER}\\s*(?:objednavky|zamowienia|klienta|zakaznika)`,
    'cislo\\s*(?:objednavky|zakaznika|smlouvy)',
    // Czech and Slovak payment symbols: the reference a payer quotes, which may repeat the invoice
    // number or not ("Variabilní symbol 233" on invoice 20150009); the title's number is the number.
    '(?:variabilni|var\\.|konstantni|konst\\.|specificky|spec\\.)\\s*symbol',
    `(?:ordre|kunde|kund|order)${J}(?:nr\\.?|nummer)`,
    `(?:tilaus|asiakas)${J}(?:nro|numero)`,
  ]),
];
