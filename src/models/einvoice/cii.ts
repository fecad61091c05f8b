import { children, child, textAt, type XmlElement } from './xml-tree.js';
import { dataAddress, dataAmount, dataDate, dataIdentifier, dataNumber, dataText, definedFields, type DataLineItem, type DataSyntax, type InvoiceData } from './invoice-data.js';

/** Document type codes (UNTDID 1001) of credit notes. */
const CREDIT_NOTE_CODES: ReadonlySet<string> = new Set(['81', '83', '261', '262', '296', '308', '381', '396', '420', '458', '532']);

/**
 * Where CII's terms sit: UN/CEFACT CII D16B (Factur-X, ZUGFeRD 2.x, XRechnung's CII syntax,
 * every profile from MINIMUM to EXTENDED) and ZUGFeRD 1.0's CrossIndustryDocument, which names
 * the same terms under older element names.
 */
const PATHS = {
  CII: {
    profile: 'ExchangedDocumentContext/GuidelineSpecifiedDocumentContextParameter/ID',
    document: 'ExchangedDocument',
    transaction: 'SupplyChainTradeTransaction',
    agreement: 'ApplicableHeaderTradeAgreement',
    settlement: 'ApplicableHeaderTradeSettlement',
    summation: 'SpecifiedTradeSettlementHeaderMonetarySummation',
    lineAgreement: 'SpecifiedLineTradeAgreement',
    lineDelivery: 'SpecifiedLineTradeDelivery',
    lineSettlement: 'SpecifiedLineTradeSettlement',
    lineSummation: 'SpecifiedTradeSettlementLineMonetarySummation',
    taxRate: 'RateApplicablePercent',
  },
  ZUGFeRD1: {
    profile: 'SpecifiedExchangedDocumentContext/GuidelineSpecifiedDocumentContextParameter/ID',
    document: 'HeaderExchangedDocument',
    transaction: 'SpecifiedSupplyChainTradeTransaction',
    agreement: 'ApplicableSupplyChainTradeAgreement',
    settlement: 'ApplicableSupplyChainTradeSettlement',
    summation: 'SpecifiedTradeSettlementMonetarySummation',
    lineAgreement: 'SpecifiedSupplyChainTradeAgreement',
    lineDelivery: 'SpecifiedSupplyChainTradeDelivery',
    lineSettlement: 'SpecifiedSupplyChainTradeSettlement',
    lineSummation: 'SpecifiedTradeSettlementMonetarySummation',
    taxRate: 'ApplicablePercent',
  },
} as const;

/** The root names of CII invoices, by syntax. */
export const CII_ROOTS: Readonly<Record<string, Exclude<DataSyntax, 'UBL'>>> = { CrossIndustryInvoice: 'CII', CrossIndustryDocument: 'ZUGFeRD1' };

/** An invoice's data from a CII document (root CrossIndustryInvoice or CrossIndustryDocument). */
export function readCii(root: XmlElement, syntax: Exclude<DataSyntax, 'UBL'>): InvoiceData {
  const paths = PATHS[syntax];
  const document = child(root, paths.document);
  const transaction = child(root, paths.transaction);
  const agreement = child(transaction, paths.agreement);
  const settlement = child(transaction, paths.settlement);
  const summation = child(settlement, paths.summation);
  const seller = child(agreement, 'SellerTradeParty');
  const buyer = child(agreement, 'BuyerTradeParty');
  const currency = dataIdentifier(textAt(settlement, 'InvoiceCurrencyCode'));
  const paymentMeans = children(settlement, 'SpecifiedTradeSettlementPaymentMeans');
  const iban = paymentMeans.map((means) => textAt(means, 'PayeePartyCreditorFinancialAccount/IBANID')).find(Boolean);
  const bic = paymentMeans.map((means) => textAt(means, 'PayeeSpecifiedCreditorFinancialInstitution/BICID')).find(Boolean);
  const dueDate = children(settlement, 'SpecifiedTradePaymentTerms')
    .map((terms) => dataDate(textAt(terms, 'DueDateDateTime/DateTimeString')))
    .find(Boolean);
  const profile = textAt(root, paths.profile);
  return {
    syntax,
    ...(profile ? { profile } : {}),
    creditNote: CREDIT_NOTE_CODES.has(textAt(document, 'TypeCode') ?? ''),
    fields: definedFields({
      InvoiceId: dataText(textAt(document, 'ID')),
      InvoiceDate: dataDate(textAt(document, 'IssueDateTime/DateTimeString')),
      DueDate: dueDate,
      VendorName: dataText(textAt(seller, 'Name')),
      VendorAddress: partyAddress(seller),
      VendorTaxId: taxRegistration(seller),
      CustomerName: dataText(textAt(buyer, 'Name')),
      CustomerAddress: partyAddress(buyer),
      CustomerTaxId: taxRegistration(buyer),
      SubTotal: dataAmount(textAt(summation, 'TaxBasisTotalAmount')),
      TotalTax: dataAmount(amountIn(children(summation, 'TaxTotalAmount'), currency)),
      InvoiceTotal: dataAmount(textAt(summation, 'GrandTotalAmount')),
      AmountDue: dataAmount(textAt(summation, 'DuePayableAmount')),
      Currency: currency,
      IBAN: dataIdentifier(iban),
      BIC: dataIdentifier(bic),
    }),
    lineItems: children(transaction, 'IncludedSupplyChainTradeLineItem').map((line) => lineItem(line, paths)),
  };
}

/** The tax total in the invoice's currency: CII may state it a second time in the accounting currency. */
function amountIn(amounts: readonly XmlElement[], currency: string | undefined): string | undefined {
  const inCurrency = amounts.find((a) => currency !== undefined && a.attributes.get('currencyID')?.toUpperCase() === currency);
  return (inCurrency ?? amounts[0])?.text;
}

/** The party's VAT id (scheme VA), else its tax number (scheme FC). */
function taxRegistration(party: XmlElement | undefined): string | undefined {
  const registrations = children(party, 'SpecifiedTaxRegistration/ID');
  const of = (scheme: string) => registrations.find((r) => r.attributes.get('schemeID')?.toUpperCase() === scheme)?.text;
  return dataIdentifier(of('VA') ?? of('FC') ?? registrations[0]?.text);
}

function partyAddress(party: XmlElement | undefined): string | undefined {
  const address = child(party, 'PostalTradeAddress');
  if (!address) return undefined;
  return dataAddress({
    lines: [textAt(address, 'LineOne'), textAt(address, 'LineTwo'), textAt(address, 'LineThree')],
    postcode: textAt(address, 'PostcodeCode'),
    city: textAt(address, 'CityName'),
    region: textAt(address, 'CountrySubDivisionName'),
    country: textAt(address, 'CountryID'),
  });
}

function lineItem(line: XmlElement, paths: (typeof PATHS)[keyof typeof PATHS]): DataLineItem {
  const quantity = child(line, `${paths.lineDelivery}/BilledQuantity`);
  const item: DataLineItem = {
    description: dataText(textAt(line, 'SpecifiedTradeProduct/Name')),
    productCode: dataText(textAt(line, 'SpecifiedTradeProduct/SellerAssignedID')),
    quantity: dataNumber(quantity?.text),
    unit: dataText(quantity?.attributes.get('unitCode')),
    unitPrice: dataAmount(textAt(line, `${paths.lineAgreement}/NetPriceProductTradePrice/ChargeAmount`)),
    taxRate: dataNumber(textAt(line, `${paths.lineSettlement}/ApplicableTradeTax/${paths.taxRate}`)),
    amount: dataAmount(textAt(line, `${paths.lineSettlement}/${paths.lineSummation}/LineTotalAmount`)),
  };
  return Object.fromEntries(Object.entries(item).filter(([, value]) => value !== undefined));
}
