/** The typed fields of the invoice and receipt models, as the export names them. */
export const INVOICE_FIELDS = [
  'InvoiceId',
  'InvoiceDate',
  'DueDate',
  'VendorName',
  'VendorAddress',
  'VendorTaxId',
  'CustomerName',
  'CustomerTaxId',
  'SubTotal',
  'TotalTax',
  'InvoiceTotal',
  'Currency',
  'IBAN',
] as const;
export type InvoiceField = (typeof INVOICE_FIELDS)[number];
