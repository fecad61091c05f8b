/**
 * How invoices are worded in each language of the labelled set: the labels real invoicing tools
 * print (several per field, abbreviations included), month names and the small print. `{rate}`
 * stands for a tax rate as printed ("21%").
 */

export type Language = 'en' | 'pt' | 'es' | 'fr' | 'de' | 'nl' | 'it';

export interface Wording {
  titles: readonly string[];
  number: readonly string[];
  date: readonly string[];
  due: readonly string[];
  billTo: readonly string[];
  from: readonly string[];
  subtotal: readonly string[];
  tax: readonly string[];
  total: readonly string[];
  description: readonly string[];
  quantity: readonly string[];
  unitPrice: readonly string[];
  amount: readonly string[];
  bank: readonly string[];
  page: string;
  thanks: readonly string[];
  /** A sentence naming the number and the date ("Facture n°{number} du {date}"), when the language has a usual one. */
  sentence?: string;
  /** A line stating the currency of every amount. */
  currencyNote: readonly string[];
  months: readonly string[];
  /** Short month names where documents print them ("Mar"). */
  shortMonths?: readonly string[];
  items: readonly string[];
}

export const WORDING: Readonly<Record<Language, Wording>> = {
  en: {
    titles: ['INVOICE', 'Invoice', 'TAX INVOICE', 'Tax Invoice', 'Commercial Invoice', 'BILL'],
    number: ['Invoice No.', 'Invoice No', 'Invoice #', 'Invoice Number', 'Inv. No.', 'Invoice no', 'Bill No.', 'Invoice ID', 'Reference'],
    date: ['Invoice Date', 'Date', 'Date of issue', 'Issue Date', 'Dated', 'Invoice date', 'Bill Date'],
    due: ['Due Date', 'Payment Due', 'Due', 'Date due', 'Due by', 'Payment due date'],
    billTo: ['Bill To', 'Billed To', 'Invoice To', 'Customer', 'Sold To', 'Buyer', 'Bill to'],
    from: ['From', 'Seller', 'Supplier', 'Issued by'],
    subtotal: ['Subtotal', 'Sub Total', 'Net Total', 'Total excl. VAT', 'Net amount', 'Total before tax', 'Taxable Value', 'Sub-total'],
    tax: ['VAT {rate}', 'Tax ({rate})', 'Sales Tax', 'VAT ({rate})', 'GST {rate}', 'Tax', 'VAT @ {rate}', 'Total VAT'],
    total: ['Total', 'Total Due', 'Amount Due', 'Grand Total', 'Total Payable', 'Balance Due', 'Invoice Total', 'TOTAL', 'Total Amount', 'Nett Total', 'Total for this period'],
    description: ['Description', 'Item', 'Items', 'Service', 'Particulars', 'Product'],
    quantity: ['Qty', 'Quantity', 'Units', 'Hrs'],
    unitPrice: ['Unit Price', 'Rate', 'Price', 'Unit Cost'],
    amount: ['Amount', 'Total', 'Line Total'],
    bank: ['Bank details', 'Payment details', 'Please pay to', 'Remit to'],
    page: 'Page 1 of 1',
    thanks: ['Thank you for your business!', 'Payment terms: 30 days net.', 'Please include the invoice number with your payment.'],
    currencyNote: ['All amounts in {code}', 'Currency: {code}', 'Amounts shown in {code}'],
    months: ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'],
    shortMonths: ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'],
    items: ['Consulting services', 'Website maintenance', 'Office chairs', 'Printer toner cartridge', 'Annual software licence', 'Freight charges', 'Design workshop', 'Cloud hosting (monthly)', 'Training session', 'Installation labour', 'A4 copy paper, 5 reams', 'Support retainer'],
  },
  pt: {
    titles: ['FATURA', 'Fatura', 'Fatura-Recibo', 'FATURA N.º'],
    number: ['Fatura n.º', 'N.º Fatura', 'Número', 'Fatura Nº', 'Documento n.º', 'N.º'],
    date: ['Data', 'Data de emissão', 'Data da fatura', 'Data emissão'],
    due: ['Data de vencimento', 'Vencimento', 'Data limite de pagamento'],
    billTo: ['Cliente', 'Exmo.(s) Sr.(s)', 'Adquirente', 'Faturar a'],
    from: ['Fornecedor', 'Emitente'],
    subtotal: ['Total Ilíquido', 'Subtotal', 'Base tributável', 'Valor sem IVA', 'Total s/ IVA'],
    tax: ['IVA {rate}', 'Total IVA', 'IVA ({rate})', 'Imposto'],
    total: ['Total', 'Total a pagar', 'Total da fatura', 'TOTAL', 'Total (EUR)', 'Valor a pagar', 'Total Documento'],
    description: ['Descrição', 'Designação', 'Artigo', 'Produto'],
    quantity: ['Qtd.', 'Quantidade', 'Qtd'],
    unitPrice: ['Preço Unit.', 'Preço unitário', 'P. Unit.'],
    amount: ['Valor', 'Total', 'Montante'],
    bank: ['Dados bancários', 'Pagamento por transferência'],
    page: 'Página 1 de 1',
    thanks: ['Obrigado pela preferência.', 'Processado por programa certificado.'],
    currencyNote: ['Moeda: {code}', 'Valores em {code}'],
    months: ['janeiro', 'fevereiro', 'março', 'abril', 'maio', 'junho', 'julho', 'agosto', 'setembro', 'outubro', 'novembro', 'dezembro'],
    items: ['Serviços de consultoria', 'Manutenção do website', 'Cadeiras de escritório', 'Licença anual de software', 'Transporte', 'Formação', 'Papel A4, 5 resmas'],
  },
  es: {
    titles: ['FACTURA', 'Factura', 'Factura simplificada'],
    number: ['Nº Factura', 'Número de factura', 'Factura nº', 'Factura Nº', 'Nº', 'Num. factura'],
    date: ['Fecha', 'Fecha de factura', 'Fecha de emisión', 'Fecha factura'],
    due: ['Fecha de vencimiento', 'Vencimiento', 'Vence'],
    billTo: ['Cliente', 'Facturar a', 'Datos del cliente', 'Destinatario'],
    from: ['Emisor', 'Proveedor'],
    subtotal: ['Base imponible', 'Subtotal', 'Importe neto', 'Total sin IVA'],
    tax: ['IVA {rate}', 'IVA ({rate})', 'Cuota IVA', 'Total IVA'],
    total: ['Total', 'Total factura', 'Total a pagar', 'TOTAL', 'Importe total', 'Total (EUR)'],
    description: ['Descripción', 'Concepto', 'Artículo'],
    quantity: ['Cant.', 'Cantidad', 'Uds.'],
    unitPrice: ['Precio', 'Precio unitario', 'P. unit.'],
    amount: ['Importe', 'Total', 'Subtotal'],
    bank: ['Datos bancarios', 'Forma de pago: transferencia'],
    page: 'Página 1 de 1',
    thanks: ['Gracias por su confianza.', 'Pago a 30 días.'],
    currencyNote: ['Moneda: {code}', 'Importes en {code}'],
    months: ['enero', 'febrero', 'marzo', 'abril', 'mayo', 'junio', 'julio', 'agosto', 'septiembre', 'octubre', 'noviembre', 'diciembre'],
    items: ['Servicios de consultoría', 'Mantenimiento web', 'Sillas de oficina', 'Licencia de software', 'Portes', 'Formación', 'Papel A4, 5 paquetes'],
  },
  fr: {
    titles: ['FACTURE', 'Facture', 'Facture N°'],
    number: ['Facture n°', 'N° de facture', 'Numéro de facture', 'Facture N°', 'N° facture', 'Réf. facture', 'Numéro'],
    date: ['Date', 'Date de facture', 'Date de facturation', "Date d'émission", 'Date facture'],
    due: ["Date d'échéance", 'Échéance', 'À payer avant le', 'Date limite de paiement'],
    billTo: ['Facturé à', 'Client', 'Adresse de facturation', 'Destinataire'],
    from: ['Émetteur', 'Fournisseur', 'Vendeur'],
    subtotal: ['Total HT', 'Sous-total', 'Montant HT', 'Total hors taxes'],
    tax: ['TVA {rate}', 'TVA ({rate})', 'Montant TVA', 'Total TVA'],
    total: ['Total TTC', 'Net à payer', 'Montant total', 'Total', 'Montant TTC', 'Total à payer', 'TOTAL TTC'],
    description: ['Désignation', 'Description', 'Libellé', 'Article'],
    quantity: ['Qté', 'Quantité', 'Qté.'],
    unitPrice: ['Prix unitaire', 'P.U. HT', 'Prix U.'],
    amount: ['Montant', 'Total HT', 'Montant HT'],
    bank: ['Coordonnées bancaires', 'Règlement par virement'],
    page: 'Page 1 / 1',
    thanks: ['Merci de votre confiance.', 'En cas de retard de paiement, une pénalité de 3 fois le taux légal sera appliquée.'],
    sentence: 'Facture n°{number} du {date}',
    currencyNote: ['Devise : {code}', 'Montants en {code}'],
    months: ['janvier', 'février', 'mars', 'avril', 'mai', 'juin', 'juillet', 'août', 'septembre', 'octobre', 'novembre', 'décembre'],
    items: ['Prestation de conseil', 'Maintenance du site web', 'Chaises de bureau', 'Licence logicielle annuelle', 'Frais de port', 'Formation', 'Ramettes de papier A4'],
  },
  de: {
    titles: ['RECHNUNG', 'Rechnung', 'Rechnung Nr.'],
    number: ['Rechnungsnummer', 'Rechnungs-Nr.', 'Rechnung Nr.', 'Re.-Nr.', 'Belegnummer', 'Rechnungsnr.', 'Nummer'],
    date: ['Rechnungsdatum', 'Datum', 'Re.-Datum', 'Belegdatum', 'Ausstellungsdatum'],
    due: ['Fällig am', 'Zahlbar bis', 'Fälligkeitsdatum', 'Zahlungsziel'],
    billTo: ['Rechnungsempfänger', 'Kunde', 'Rechnungsadresse', 'An'],
    from: ['Rechnungssteller', 'Lieferant', 'Absender'],
    subtotal: ['Zwischensumme', 'Nettobetrag', 'Summe netto', 'Gesamt netto', 'Netto'],
    tax: ['MwSt. {rate}', 'USt. {rate}', 'zzgl. {rate} MwSt.', 'Umsatzsteuer {rate}', '{rate} USt.'],
    total: ['Gesamtbetrag', 'Rechnungsbetrag', 'Summe', 'Endbetrag', 'Gesamt brutto', 'Bruttobetrag', 'Zu zahlen', 'Gesamtsumme'],
    description: ['Beschreibung', 'Bezeichnung', 'Leistung', 'Artikel'],
    quantity: ['Menge', 'Anzahl', 'Std.'],
    unitPrice: ['Einzelpreis', 'Preis', 'E-Preis'],
    amount: ['Betrag', 'Gesamt', 'Summe'],
    bank: ['Bankverbindung', 'Zahlung per Überweisung an'],
    page: 'Seite 1 von 1',
    thanks: ['Vielen Dank für Ihren Auftrag.', 'Zahlbar innerhalb von 14 Tagen ohne Abzug.'],
    currencyNote: ['Währung: {code}', 'Alle Beträge in {code}'],
    months: ['Januar', 'Februar', 'März', 'April', 'Mai', 'Juni', 'Juli', 'August', 'September', 'Oktober', 'November', 'Dezember'],
    items: ['Beratungsleistung', 'Wartung der Website', 'Bürostühle', 'Softwarelizenz (jährlich)', 'Versandkosten', 'Schulung', 'Kopierpapier A4, 5 Pakete'],
  },
  nl: {
    titles: ['FACTUUR', 'Factuur', 'Verkoopfactuur'],
    number: ['Factuurnummer', 'Factuurnr.', 'Factuur nr.', 'Nummer', 'Factuur nummer'],
    date: ['Factuurdatum', 'Datum', 'Factuur datum'],
    due: ['Vervaldatum', 'Uiterste betaaldatum', 'Te betalen voor'],
    billTo: ['Factuuradres', 'Klant', 'Aan', 'Debiteur'],
    from: ['Van', 'Leverancier'],
    subtotal: ['Subtotaal', 'Totaal excl. BTW', 'Netto bedrag', 'Totaal exclusief btw'],
    tax: ['BTW {rate}', 'btw {rate}', 'BTW ({rate})', 'Totaal BTW'],
    total: ['Totaal', 'Te betalen', 'Totaal incl. BTW', 'Totaalbedrag', 'TOTAAL', 'Totaal te betalen'],
    description: ['Omschrijving', 'Beschrijving', 'Artikel'],
    quantity: ['Aantal', 'Aant.'],
    unitPrice: ['Prijs', 'Stukprijs', 'Tarief'],
    amount: ['Bedrag', 'Totaal'],
    bank: ['Bankgegevens', 'Gelieve over te maken naar'],
    page: 'Pagina 1 van 1',
    thanks: ['Bedankt voor uw opdracht.', 'Betaling binnen 30 dagen na factuurdatum.'],
    currencyNote: ['Valuta: {code}', 'Bedragen in {code}'],
    months: ['januari', 'februari', 'maart', 'april', 'mei', 'juni', 'juli', 'augustus', 'september', 'oktober', 'november', 'december'],
    items: ['Advieswerkzaamheden', 'Onderhoud website', 'Bureaustoelen', 'Softwarelicentie (jaar)', 'Verzendkosten', 'Training', 'Kopieerpapier A4, 5 pakken'],
  },
  it: {
    titles: ['FATTURA', 'Fattura', 'Fattura n.'],
    number: ['Fattura n.', 'Numero fattura', 'N. fattura', 'Fattura nr.', 'Numero', 'N. documento'],
    date: ['Data', 'Data fattura', 'Data emissione', 'Data documento'],
    due: ['Scadenza', 'Data scadenza', 'Scadenza pagamento'],
    billTo: ['Cliente', 'Spett.le', 'Destinatario', 'Intestatario'],
    from: ['Fornitore', 'Cedente'],
    subtotal: ['Imponibile', 'Totale imponibile', 'Subtotale', 'Totale netto'],
    tax: ['IVA {rate}', 'IVA ({rate})', 'Totale IVA', 'Imposta'],
    total: ['Totale', 'Totale fattura', 'Totale documento', 'Totale da pagare', 'TOTALE', 'Netto a pagare'],
    description: ['Descrizione', 'Articolo', 'Prodotto'],
    quantity: ['Q.tà', 'Quantità', 'Qtà'],
    unitPrice: ['Prezzo unitario', 'Prezzo', 'Prezzo un.'],
    amount: ['Importo', 'Totale'],
    bank: ['Coordinate bancarie', 'Pagamento tramite bonifico'],
    page: 'Pagina 1 di 1',
    thanks: ['Grazie per averci scelto.', 'Pagamento a 30 giorni data fattura.'],
    currencyNote: ['Valuta: {code}', 'Importi in {code}'],
    months: ['gennaio', 'febbraio', 'marzo', 'aprile', 'maggio', 'giugno', 'luglio', 'agosto', 'settembre', 'ottobre', 'novembre', 'dicembre'],
    items: ['Servizi di consulenza', 'Manutenzione sito web', 'Sedie da ufficio', 'Licenza software annuale', 'Spese di trasporto', 'Formazione', 'Carta A4, 5 risme'],
  },
};
