/**
 * E-invoice XML built by the tests (never copied from published files): UN/CEFACT CII as Factur-X
 * writes it (EN 16931 and MINIMUM profiles), ZUGFeRD 1.0's CrossIndustryDocument, UBL Invoice and
 * CreditNote as XRechnung and Peppol BIS write them; hostile XML; and PDFs that embed any of them.
 */
import { PDFDocument, PDFName, StandardFonts } from 'pdf-lib';

export interface SampleInvoice {
  number: string;
  /** yyyy-mm-dd */
  date: string;
  due: string;
  seller: { name: string; vat: string; street: string; postcode: string; city: string; country: string };
  buyer: { name: string; vat: string; street: string; postcode: string; city: string; country: string };
  currency: string;
  net: string;
  tax: string;
  gross: string;
  payable: string;
  iban: string;
  bic: string;
  lines: Array<{ name: string; quantity: string; price: string; rate: string; amount: string }>;
}

export const SAMPLE: SampleInvoice = {
  number: 'RE-2026-0815',
  date: '2026-03-14',
  due: '2026-04-13',
  seller: { name: 'Bergmann Werkzeuge GmbH', vat: 'DE123456789', street: 'Industriestraße 7', postcode: '70173', city: 'Stuttgart', country: 'DE' },
  buyer: { name: 'Atelier Lumière SARL', vat: 'FR44732829320', street: '12 rue des Lilas', postcode: '69003', city: 'Lyon', country: 'FR' },
  currency: 'EUR',
  net: '1250.00',
  tax: '237.50',
  gross: '1487.50',
  payable: '1487.50',
  iban: 'DE89370400440532013000',
  bic: 'COBADEFFXXX',
  lines: [
    { name: 'Drehmomentschlüssel 40-200 Nm', quantity: '5', price: '150.00', rate: '19', amount: '750.00' },
    { name: 'Montage vor Ort', quantity: '4', price: '125.00', rate: '19', amount: '500.00' },
  ],
};

const compact = (iso: string) => iso.replaceAll('-', '');
const esc = (text: string) => text.replaceAll('&', '&amp;').replaceAll('<', '&lt;');

const CII_NS = 'xmlns:rsm="urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100" xmlns:ram="urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100" xmlns:udt="urn:un:unece:uncefact:data:standard:UnqualifiedDataType:100"';

function ciiParty(tag: string, party: SampleInvoice['seller']): string {
  return `<ram:${tag}><ram:Name>${esc(party.name)}</ram:Name><ram:PostalTradeAddress><ram:PostcodeCode>${party.postcode}</ram:PostcodeCode><ram:LineOne>${esc(party.street)}</ram:LineOne><ram:CityName>${esc(party.city)}</ram:CityName><ram:CountryID>${party.country}</ram:CountryID></ram:PostalTradeAddress><ram:SpecifiedTaxRegistration><ram:ID schemeID="VA">${party.vat}</ram:ID></ram:SpecifiedTaxRegistration></ram:${tag}>`;
}

/** A Factur-X / ZUGFeRD 2 CII invoice of the EN 16931 profile (or 'minimum': header totals only, no lines, no addresses). */
export function ciiInvoice(invoice: SampleInvoice = SAMPLE, profile: 'en16931' | 'minimum' = 'en16931'): string {
  const guideline = profile === 'minimum' ? 'urn:factur-x.eu:1p0:minimum' : 'urn:cen.eu:en16931:2017';
  const full = profile === 'en16931';
  const lines = full
    ? invoice.lines
        .map(
          (line, i) =>
            `<ram:IncludedSupplyChainTradeLineItem><ram:AssociatedDocumentLineDocument><ram:LineID>${i + 1}</ram:LineID></ram:AssociatedDocumentLineDocument><ram:SpecifiedTradeProduct><ram:Name>${esc(line.name)}</ram:Name></ram:SpecifiedTradeProduct><ram:SpecifiedLineTradeAgreement><ram:NetPriceProductTradePrice><ram:ChargeAmount>${line.price}</ram:ChargeAmount></ram:NetPriceProductTradePrice></ram:SpecifiedLineTradeAgreement><ram:SpecifiedLineTradeDelivery><ram:BilledQuantity unitCode="C62">${line.quantity}.0000</ram:BilledQuantity></ram:SpecifiedLineTradeDelivery><ram:SpecifiedLineTradeSettlement><ram:ApplicableTradeTax><ram:TypeCode>VAT</ram:TypeCode><ram:CategoryCode>S</ram:CategoryCode><ram:RateApplicablePercent>${line.rate}.00</ram:RateApplicablePercent></ram:ApplicableTradeTax><ram:SpecifiedTradeSettlementLineMonetarySummation><ram:LineTotalAmount>${line.amount}</ram:LineTotalAmount></ram:SpecifiedTradeSettlementLineMonetarySummation></ram:SpecifiedLineTradeSettlement></ram:IncludedSupplyChainTradeLineItem>`,
        )
        .join('')
    : '';
  const seller = full ? ciiParty('SellerTradeParty', invoice.seller) : `<ram:SellerTradeParty><ram:Name>${esc(invoice.seller.name)}</ram:Name><ram:SpecifiedTaxRegistration><ram:ID schemeID="VA">${invoice.seller.vat}</ram:ID></ram:SpecifiedTaxRegistration></ram:SellerTradeParty>`;
  const buyer = full ? ciiParty('BuyerTradeParty', invoice.buyer) : `<ram:BuyerTradeParty><ram:Name>${esc(invoice.buyer.name)}</ram:Name></ram:BuyerTradeParty>`;
  const payment = full
    ? `<ram:SpecifiedTradeSettlementPaymentMeans><ram:TypeCode>58</ram:TypeCode><ram:PayeePartyCreditorFinancialAccount><ram:IBANID>${invoice.iban}</ram:IBANID></ram:PayeePartyCreditorFinancialAccount><ram:PayeeSpecifiedCreditorFinancialInstitution><ram:BICID>${invoice.bic}</ram:BICID></ram:PayeeSpecifiedCreditorFinancialInstitution></ram:SpecifiedTradeSettlementPaymentMeans><ram:SpecifiedTradePaymentTerms><ram:DueDateDateTime><udt:DateTimeString format="102">${compact(invoice.due)}</udt:DateTimeString></ram:DueDateDateTime></ram:SpecifiedTradePaymentTerms>`
    : '';
  return `<?xml version="1.0" encoding="UTF-8"?>
<rsm:CrossIndustryInvoice ${CII_NS}>
  <rsm:ExchangedDocumentContext><ram:GuidelineSpecifiedDocumentContextParameter><ram:ID>${guideline}</ram:ID></ram:GuidelineSpecifiedDocumentContextParameter></rsm:ExchangedDocumentContext>
  <rsm:ExchangedDocument><ram:ID>${esc(invoice.number)}</ram:ID><ram:TypeCode>380</ram:TypeCode><ram:IssueDateTime><udt:DateTimeString format="102">${compact(invoice.date)}</udt:DateTimeString></ram:IssueDateTime></rsm:ExchangedDocument>
  <rsm:SupplyChainTradeTransaction>${lines}
    <ram:ApplicableHeaderTradeAgreement>${seller}${buyer}</ram:ApplicableHeaderTradeAgreement>
    <ram:ApplicableHeaderTradeDelivery/>
    <ram:ApplicableHeaderTradeSettlement><ram:InvoiceCurrencyCode>${invoice.currency}</ram:InvoiceCurrencyCode>${payment}
      <ram:SpecifiedTradeSettlementHeaderMonetarySummation>${full ? `<ram:LineTotalAmount>${invoice.net}</ram:LineTotalAmount>` : ''}<ram:TaxBasisTotalAmount>${invoice.net}</ram:TaxBasisTotalAmount><ram:TaxTotalAmount currencyID="${invoice.currency}">${invoice.tax}</ram:TaxTotalAmount><ram:GrandTotalAmount>${invoice.gross}</ram:GrandTotalAmount><ram:DuePayableAmount>${invoice.payable}</ram:DuePayableAmount></ram:SpecifiedTradeSettlementHeaderMonetarySummation>
    </ram:ApplicableHeaderTradeSettlement>
  </rsm:SupplyChainTradeTransaction>
</rsm:CrossIndustryInvoice>`;
}

/** A ZUGFeRD 1.0 invoice (CrossIndustryDocument, profile BASIC). */
export function zugferd1Invoice(invoice: SampleInvoice = SAMPLE): string {
  const party = (tag: string, p: SampleInvoice['seller']) =>
    `<ram:${tag}><ram:Name>${esc(p.name)}</ram:Name><ram:PostalTradeAddress><ram:PostcodeCode>${p.postcode}</ram:PostcodeCode><ram:LineOne>${esc(p.street)}</ram:LineOne><ram:CityName>${esc(p.city)}</ram:CityName><ram:CountryID>${p.country}</ram:CountryID></ram:PostalTradeAddress><ram:SpecifiedTaxRegistration><ram:ID schemeID="VA">${p.vat}</ram:ID></ram:SpecifiedTaxRegistration></ram:${tag}>`;
  const lines = invoice.lines
    .map(
      (line) =>
        `<ram:IncludedSupplyChainTradeLineItem><ram:SpecifiedSupplyChainTradeAgreement><ram:NetPriceProductTradePrice><ram:ChargeAmount currencyID="${invoice.currency}">${line.price}</ram:ChargeAmount></ram:NetPriceProductTradePrice></ram:SpecifiedSupplyChainTradeAgreement><ram:SpecifiedSupplyChainTradeDelivery><ram:BilledQuantity unitCode="C62">${line.quantity}</ram:BilledQuantity></ram:SpecifiedSupplyChainTradeDelivery><ram:SpecifiedSupplyChainTradeSettlement><ram:ApplicableTradeTax><ram:TypeCode>VAT</ram:TypeCode><ram:ApplicablePercent>${line.rate}</ram:ApplicablePercent></ram:ApplicableTradeTax><ram:SpecifiedTradeSettlementMonetarySummation><ram:LineTotalAmount currencyID="${invoice.currency}">${line.amount}</ram:LineTotalAmount></ram:SpecifiedTradeSettlementMonetarySummation></ram:SpecifiedSupplyChainTradeSettlement><ram:SpecifiedTradeProduct><ram:Name>${esc(line.name)}</ram:Name></ram:SpecifiedTradeProduct></ram:IncludedSupplyChainTradeLineItem>`,
    )
    .join('');
  return `<?xml version="1.0" encoding="UTF-8"?>
<rsm:CrossIndustryDocument xmlns:rsm="urn:ferd:CrossIndustryDocument:invoice:1p0" xmlns:ram="urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:12" xmlns:udt="urn:un:unece:uncefact:data:standard:UnqualifiedDataType:15">
  <rsm:SpecifiedExchangedDocumentContext><ram:GuidelineSpecifiedDocumentContextParameter><ram:ID>urn:ferd:CrossIndustryDocument:invoice:1p0:basic</ram:ID></ram:GuidelineSpecifiedDocumentContextParameter></rsm:SpecifiedExchangedDocumentContext>
  <rsm:HeaderExchangedDocument><ram:ID>${esc(invoice.number)}</ram:ID><ram:Name>RECHNUNG</ram:Name><ram:TypeCode>380</ram:TypeCode><ram:IssueDateTime><udt:DateTimeString format="102">${compact(invoice.date)}</udt:DateTimeString></ram:IssueDateTime></rsm:HeaderExchangedDocument>
  <rsm:SpecifiedSupplyChainTradeTransaction>
    <ram:ApplicableSupplyChainTradeAgreement>${party('SellerTradeParty', invoice.seller)}${party('BuyerTradeParty', invoice.buyer)}</ram:ApplicableSupplyChainTradeAgreement>
    <ram:ApplicableSupplyChainTradeSettlement><ram:InvoiceCurrencyCode>${invoice.currency}</ram:InvoiceCurrencyCode>
      <ram:SpecifiedTradeSettlementPaymentMeans><ram:TypeCode>31</ram:TypeCode><ram:PayeePartyCreditorFinancialAccount><ram:IBANID>${invoice.iban}</ram:IBANID></ram:PayeePartyCreditorFinancialAccount><ram:PayeeSpecifiedCreditorFinancialInstitution><ram:BICID>${invoice.bic}</ram:BICID></ram:PayeeSpecifiedCreditorFinancialInstitution></ram:SpecifiedTradeSettlementPaymentMeans>
      <ram:SpecifiedTradePaymentTerms><ram:DueDateDateTime><udt:DateTimeString format="102">${compact(invoice.due)}</udt:DateTimeString></ram:DueDateDateTime></ram:SpecifiedTradePaymentTerms>
      <ram:SpecifiedTradeSettlementMonetarySummation><ram:LineTotalAmount currencyID="${invoice.currency}">${invoice.net}</ram:LineTotalAmount><ram:TaxBasisTotalAmount currencyID="${invoice.currency}">${invoice.net}</ram:TaxBasisTotalAmount><ram:TaxTotalAmount currencyID="${invoice.currency}">${invoice.tax}</ram:TaxTotalAmount><ram:GrandTotalAmount currencyID="${invoice.currency}">${invoice.gross}</ram:GrandTotalAmount><ram:DuePayableAmount currencyID="${invoice.currency}">${invoice.payable}</ram:DuePayableAmount></ram:SpecifiedTradeSettlementMonetarySummation>
    </ram:ApplicableSupplyChainTradeSettlement>${lines}
  </rsm:SpecifiedSupplyChainTradeTransaction>
</rsm:CrossIndustryDocument>`;
}

/** A UBL 2.1 Invoice or CreditNote as XRechnung (UBL syntax) and Peppol BIS Billing 3.0 write it; the default prefix for the document's own namespace. */
export function ublInvoice(invoice: SampleInvoice = SAMPLE, kind: 'Invoice' | 'CreditNote' = 'Invoice'): string {
  const party = (p: SampleInvoice['seller']) =>
    `<cac:Party><cac:PartyName><cbc:Name>${esc(p.name)} (trading)</cbc:Name></cac:PartyName><cac:PostalAddress><cbc:StreetName>${esc(p.street)}</cbc:StreetName><cbc:CityName>${esc(p.city)}</cbc:CityName><cbc:PostalZone>${p.postcode}</cbc:PostalZone><cac:Country><cbc:IdentificationCode>${p.country}</cbc:IdentificationCode></cac:Country></cac:PostalAddress><cac:PartyTaxScheme><cbc:CompanyID>${p.vat}</cbc:CompanyID><cac:TaxScheme><cbc:ID>VAT</cbc:ID></cac:TaxScheme></cac:PartyTaxScheme><cac:PartyLegalEntity><cbc:RegistrationName>${esc(p.name)}</cbc:RegistrationName></cac:PartyLegalEntity></cac:Party>`;
  const lineTag = kind === 'Invoice' ? 'InvoiceLine' : 'CreditNoteLine';
  const quantityTag = kind === 'Invoice' ? 'InvoicedQuantity' : 'CreditedQuantity';
  const lines = invoice.lines
    .map(
      (line, i) =>
        `<cac:${lineTag}><cbc:ID>${i + 1}</cbc:ID><cbc:${quantityTag} unitCode="C62">${line.quantity}</cbc:${quantityTag}><cbc:LineExtensionAmount currencyID="${invoice.currency}">${line.amount}</cbc:LineExtensionAmount><cac:Item><cbc:Name>${esc(line.name)}</cbc:Name><cac:ClassifiedTaxCategory><cbc:ID>S</cbc:ID><cbc:Percent>${line.rate}</cbc:Percent><cac:TaxScheme><cbc:ID>VAT</cbc:ID></cac:TaxScheme></cac:ClassifiedTaxCategory></cac:Item><cac:Price><cbc:PriceAmount currencyID="${invoice.currency}">${line.price}</cbc:PriceAmount></cac:Price></cac:${lineTag}>`,
    )
    .join('');
  const due = kind === 'Invoice' ? `<cbc:DueDate>${invoice.due}</cbc:DueDate>` : '';
  const typeCode = kind === 'Invoice' ? '<cbc:InvoiceTypeCode>380</cbc:InvoiceTypeCode>' : '<cbc:CreditNoteTypeCode>381</cbc:CreditNoteTypeCode>';
  return `\uFEFF<?xml version="1.0" encoding="UTF-8"?>
<${kind} xmlns="urn:oasis:names:specification:ubl:schema:xsd:${kind}-2" xmlns:cac="urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2" xmlns:cbc="urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2">
  <cbc:CustomizationID>urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_3.0</cbc:CustomizationID>
  <cbc:ProfileID>urn:fdc:peppol.eu:2017:poacc:billing:01:1.0</cbc:ProfileID>
  <cbc:ID>${esc(invoice.number)}</cbc:ID><cbc:IssueDate>${invoice.date}</cbc:IssueDate>${due}${typeCode}
  <cbc:DocumentCurrencyCode>${invoice.currency}</cbc:DocumentCurrencyCode><cbc:BuyerReference>04011000-12345-34</cbc:BuyerReference>
  <cac:AccountingSupplierParty>${party(invoice.seller)}</cac:AccountingSupplierParty>
  <cac:AccountingCustomerParty>${party(invoice.buyer)}</cac:AccountingCustomerParty>
  <cac:PaymentMeans><cbc:PaymentMeansCode>58</cbc:PaymentMeansCode>${kind === 'CreditNote' ? `<cbc:PaymentDueDate>${invoice.due}</cbc:PaymentDueDate>` : ''}<cac:PayeeFinancialAccount><cbc:ID>${invoice.iban}</cbc:ID><cac:FinancialInstitutionBranch><cbc:ID>${invoice.bic}</cbc:ID></cac:FinancialInstitutionBranch></cac:PayeeFinancialAccount></cac:PaymentMeans>
  <cac:TaxTotal><cbc:TaxAmount currencyID="${invoice.currency}">${invoice.tax}</cbc:TaxAmount></cac:TaxTotal>
  <cac:LegalMonetaryTotal><cbc:LineExtensionAmount currencyID="${invoice.currency}">${invoice.net}</cbc:LineExtensionAmount><cbc:TaxExclusiveAmount currencyID="${invoice.currency}">${invoice.net}</cbc:TaxExclusiveAmount><cbc:TaxInclusiveAmount currencyID="${invoice.currency}">${invoice.gross}</cbc:TaxInclusiveAmount><cbc:PayableAmount currencyID="${invoice.currency}">${invoice.payable}</cbc:PayableAmount></cac:LegalMonetaryTotal>
  ${lines}
</${kind}>`;
}

/** XML meant to hurt a parser: entity expansion, an external entity, deep nesting, a huge text node. */
export const HOSTILE_XML = {
  billionLaughs: () =>
    `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol">${Array.from({ length: 9 }, (_, i) => `<!ENTITY lol${i + 1} "${`&lol${i === 0 ? '' : i};`.repeat(10)}">`).join('')}]><rsm:CrossIndustryInvoice ${CII_NS}><rsm:ExchangedDocument><ram:ID>&lol9;</ram:ID></rsm:ExchangedDocument></rsm:CrossIndustryInvoice>`,
  externalEntity: () =>
    `<?xml version="1.0"?><!DOCTYPE r [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><rsm:CrossIndustryInvoice ${CII_NS}><rsm:ExchangedDocument><ram:ID>&xxe;</ram:ID></rsm:ExchangedDocument></rsm:CrossIndustryInvoice>`,
  deepNesting: (depth = 10_000) => `<?xml version="1.0"?><rsm:CrossIndustryInvoice ${CII_NS}>${'<ram:A>'.repeat(depth)}${'</ram:A>'.repeat(depth)}</rsm:CrossIndustryInvoice>`,
  hugeText: (bytes: number) => `<?xml version="1.0"?><rsm:CrossIndustryInvoice ${CII_NS}><rsm:ExchangedDocument><ram:ID>${'A'.repeat(bytes)}</ram:ID></rsm:ExchangedDocument></rsm:CrossIndustryInvoice>`,
  broken: () => ciiInvoice().slice(0, 900),
  notAnInvoice: () => '<?xml version="1.0"?><catalog xmlns="urn:example:books"><book id="1"><title>XML</title></book></catalog>',
};

/** What the printed page of a sample invoice says, one text per line, as an invoicing tool prints it. */
export function printedLines(invoice: SampleInvoice = SAMPLE, overrides: { total?: string } = {}): string[] {
  const german = (amount: string) => amount.replace('.', ',');
  return [
    invoice.seller.name,
    `${invoice.seller.street}, ${invoice.seller.postcode} ${invoice.seller.city}`,
    `USt-IdNr.: ${invoice.seller.vat}`,
    'RECHNUNG',
    `Rechnungsnummer: ${invoice.number}`,
    `Rechnungsdatum: ${invoice.date.split('-').reverse().join('.')}`,
    `Kunde: ${invoice.buyer.name}`,
    `Nettobetrag: ${german(invoice.net)} EUR`,
    `MwSt. 19%: ${german(invoice.tax)} EUR`,
    `Gesamtbetrag: ${german(overrides.total ?? invoice.gross)} EUR`,
    `IBAN: ${invoice.iban}`,
  ];
}

/** A one-page text PDF printing `lines`, with `xml` embedded as a Factur-X attachment named `fileName`. */
export async function pdfWithXml(lines: readonly string[], xml?: string | Uint8Array, fileName = 'factur-x.xml', options: { associatedOnly?: boolean } = {}): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const page = doc.addPage([595.28, 841.89]);
  lines.forEach((text, i) => page.drawText(text, { x: 50, y: 780 - i * 18, size: 11, font }));
  if (xml !== undefined) await doc.attach(typeof xml === 'string' ? Buffer.from(xml) : xml, fileName, { mimeType: 'text/xml', description: 'Factur-X Invoice' });
  const saved = await doc.save();
  if (!options.associatedOnly) return saved;
  // Some tools name the file only in the catalog's associated files (AF), not in the EmbeddedFiles
  // name tree (pdf-lib writes both when it saves: the tree goes from the saved file).
  const reloaded = await PDFDocument.load(saved);
  reloaded.catalog.delete(PDFName.of('Names'));
  return reloaded.save();
}
