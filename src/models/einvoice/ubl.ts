import { children, child, textAt, type XmlElement } from './xml-tree.js';
import { dataAddress, dataAmount, dataDate, dataIdentifier, dataNumber, dataText, definedFields, type DataLineItem, type InvoiceData } from './invoice-data.js';

/** The root names of UBL invoices (XRechnung's UBL syntax, Peppol BIS Billing 3.0). */
export const UBL_ROOTS: ReadonlySet<string> = new Set(['Invoice', 'CreditNote']);

/** An invoice's data from a UBL 2.1 Invoice or CreditNote. */
export function readUbl(root: XmlElement): InvoiceData {
  const creditNote = root.name === 'CreditNote';
  const seller = child(root, 'AccountingSupplierParty/Party');
  const buyer = child(root, 'AccountingCustomerParty/Party');
  const totals = child(root, 'LegalMonetaryTotal');
  const currency = dataIdentifier(textAt(root, 'DocumentCurrencyCode'));
  const paymentMeans = children(root, 'PaymentMeans');
  const account = paymentMeans.map((means) => child(means, 'PayeeFinancialAccount')).find(Boolean);
  const profile = textAt(root, 'CustomizationID');
  // A credit note states its due date in its payment means (UBL 2.1 has no DueDate there).
  const dueDate = dataDate(textAt(root, 'DueDate')) ?? paymentMeans.map((means) => dataDate(textAt(means, 'PaymentDueDate'))).find(Boolean);
  return {
    syntax: 'UBL',
    ...(profile ? { profile } : {}),
    creditNote,
    fields: definedFields({
      InvoiceId: dataText(textAt(root, 'ID')),
      InvoiceDate: dataDate(textAt(root, 'IssueDate')),
      DueDate: dueDate,
      VendorName: partyName(seller),
      VendorAddress: partyAddress(seller),
      VendorTaxId: taxRegistration(seller),
      CustomerName: partyName(buyer),
      CustomerAddress: partyAddress(buyer),
      CustomerTaxId: taxRegistration(buyer),
      SubTotal: dataAmount(textAt(totals, 'TaxExclusiveAmount')),
      TotalTax: dataAmount(taxTotal(root, currency)),
      InvoiceTotal: dataAmount(textAt(totals, 'TaxInclusiveAmount')),
      AmountDue: dataAmount(textAt(totals, 'PayableAmount')),
      Currency: currency,
      IBAN: dataIdentifier(textAt(account, 'ID')),
      BIC: dataIdentifier(textAt(account, 'FinancialInstitutionBranch/ID')),
    }),
    lineItems: children(root, creditNote ? 'CreditNoteLine' : 'InvoiceLine').map((line) => lineItem(line, creditNote)),
  };
}

/** The VAT total in the document's currency: a second TaxTotal may give it in the accounting currency. */
function taxTotal(root: XmlElement, currency: string | undefined): string | undefined {
  const amounts = children(root, 'TaxTotal/TaxAmount');
  const inCurrency = amounts.find((a) => currency !== undefined && a.attributes.get('currencyID')?.toUpperCase() === currency);
  return (inCurrency ?? amounts[0])?.text;
}

/** EN 16931's seller and buyer name is the legal registration name; the trading name stands in when it is missing. */
function partyName(party: XmlElement | undefined): string | undefined {
  return dataText(textAt(party, 'PartyLegalEntity/RegistrationName') ?? textAt(party, 'PartyName/Name'));
}

/** The party's VAT id (tax scheme VAT), else another tax registration (a tax number). */
function taxRegistration(party: XmlElement | undefined): string | undefined {
  const schemes = children(party, 'PartyTaxScheme');
  const vat = schemes.find((s) => textAt(s, 'TaxScheme/ID')?.toUpperCase() === 'VAT');
  return dataIdentifier(textAt(vat ?? schemes[0], 'CompanyID'));
}

function partyAddress(party: XmlElement | undefined): string | undefined {
  const address = child(party, 'PostalAddress');
  if (!address) return undefined;
  return dataAddress({
    lines: [textAt(address, 'StreetName'), textAt(address, 'AdditionalStreetName'), ...children(address, 'AddressLine/Line').map((l) => l.text)],
    postcode: textAt(address, 'PostalZone'),
    city: textAt(address, 'CityName'),
    region: textAt(address, 'CountrySubentity'),
    country: textAt(address, 'Country/IdentificationCode'),
  });
}

function lineItem(line: XmlElement, creditNote: boolean): DataLineItem {
  const quantity = child(line, creditNote ? 'CreditedQuantity' : 'InvoicedQuantity');
  const item: DataLineItem = {
    description: dataText(textAt(line, 'Item/Name')),
    productCode: dataText(textAt(line, 'Item/SellersItemIdentification/ID')),
    quantity: dataNumber(quantity?.text),
    unit: dataText(quantity?.attributes.get('unitCode')),
    unitPrice: dataAmount(textAt(line, 'Price/PriceAmount')),
    taxRate: dataNumber(textAt(line, 'Item/ClassifiedTaxCategory/Percent')),
    amount: dataAmount(textAt(line, 'LineExtensionAmount')),
  };
  return Object.fromEntries(Object.entries(item).filter(([, value]) => value !== undefined));
}
