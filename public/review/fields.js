// What the reviewer sees of a document's entities: the typed fields grouped as a reviewer reads an
// invoice, which of them need a look and why, the item tables, and the layout detections (lines,
// paragraphs, key-values) kept apart. Pure functions of the task the reviewer API returns.

/** A field below this confidence is marked for a look. */
export const SURE = 0.9;

/** The groups in reading order, each with its fields in order; other typed fields close the list. */
export const GROUPS = [
  { id: 'document', title: 'Document', fields: ['InvoiceId', 'DocumentType', 'InvoiceDate', 'DueDate', 'ServiceDate', 'PurchaseOrder', 'Currency'] },
  { id: 'seller', title: 'Seller', fields: ['VendorName', 'VendorAddress', 'VendorTaxId'] },
  { id: 'buyer', title: 'Buyer', fields: ['CustomerName', 'CustomerAddress', 'CustomerTaxId'] },
  { id: 'amounts', title: 'Amounts', fields: ['SubTotal', 'Discount', 'TotalTax', 'TaxLine', 'InvoiceTotal', 'Prepaid', 'AmountDue', 'Rounding', 'Tendered', 'Change'] },
  { id: 'payment', title: 'Payment', fields: ['IBAN', 'BIC', 'PaymentTerms', 'PaymentReference'] },
  { id: 'other', title: 'Other fields', fields: [] },
];

const LABELS = {
  InvoiceId: 'Number', DocumentType: 'Type', InvoiceDate: 'Date', DueDate: 'Due date', ServiceDate: 'Service date', PurchaseOrder: 'Purchase order',
  VendorName: 'Name', VendorAddress: 'Address', VendorTaxId: 'Tax id',
  CustomerName: 'Name', CustomerAddress: 'Address', CustomerTaxId: 'Tax id',
  SubTotal: 'Subtotal', TotalTax: 'Tax', TaxLine: 'Tax line', InvoiceTotal: 'Total', AmountDue: 'Amount due', Prepaid: 'Prepaid', Tendered: 'Tendered',
  PaymentTerms: 'Terms', PaymentReference: 'Reference',
};

/** Entity kinds that are typed fields (what a reviewer checks); lines, paragraphs, key-values and tables are the layout. */
const TYPED = new Set(['Field', 'PersonalData', 'Mrz', 'TemplateField']);

export function groupOf(category) {
  return (GROUPS.find((g) => g.fields.includes(category)) ?? GROUPS.at(-1)).id;
}

/** The field's label in its group ("Due date"); a field of no group keeps its own name, spaced. */
export function labelOf(category) {
  return LABELS[category] ?? category.replace(/([a-z])([A-Z])/g, '$1 $2');
}

/** Why a typed field needs the reviewer's look, in words (empty when it does not). */
export function doubtsOf(entity) {
  const doubts = [];
  if (entity.notDetected) doubts.push('not found');
  else if (entity.confidence < SURE) doubts.push(`unsure (${Math.round(entity.confidence * 100)}%)`);
  if (entity.vendorProfile?.agreement === 'disagreed') doubts.push("the vendor's profile reads another value");
  if (entity.vendorProfile?.agreement === 'profileMissed') doubts.push("not where the vendor's profile expected it");
  // The warning itself is shown in full beside the field.
  if (entity.documentData?.warning) doubts.push('see the warning');
  return doubts;
}

/**
 * One value the reviewer can change: a typed field (or its empty slot), a layout detection's value,
 * or a cell of an item table. `key` names it in the page and in the undo history.
 */
function valueRecord(kind, chunk, entityIndex, entity, extra) {
  const content = entity.keyValues[0]?.content ?? '';
  return { kind, chunkNumber: chunk.chunkNumber, pageNumber: chunk.pageNumber, entityIndex, entity, original: content, value: content, place: null, accepted: false, ...extra };
}

function byGroupOrder(a, b) {
  const ga = GROUPS.findIndex((g) => g.id === a.group);
  const gb = GROUPS.findIndex((g) => g.id === b.group);
  if (ga !== gb) return ga - gb;
  const fields = GROUPS[ga].fields;
  const ia = fields.indexOf(a.entity.category);
  const ib = fields.indexOf(b.entity.category);
  return (ia < 0 ? fields.length : ia) - (ib < 0 ? fields.length : ib) || a.chunkNumber - b.chunkNumber || a.entityIndex - b.entityIndex;
}

/** The document's values to review: typed fields in group order, item tables' cells, the layout's values, and the warnings. */
export function reviewModel(task) {
  const fields = [];
  const tables = [];
  const layout = [];
  const warnings = [];
  for (const chunk of task.chunks) {
    chunk.entities.forEach((entity, entityIndex) => {
      if (entity.type === 'Warning') {
        warnings.push(entity.keyValues[0]?.content ?? entity.category);
      } else if (TYPED.has(entity.type)) {
        const doubts = doubtsOf(entity);
        const key = `f:${chunk.chunkNumber}:${entityIndex}`;
        fields.push(valueRecord('field', chunk, entityIndex, entity, { key, group: groupOf(entity.category), label: labelOf(entity.category), doubts }));
      } else if (entity.type === 'Table' && entity.table) {
        tables.push(tableModel(chunk, entityIndex, entity));
      } else if (entity.keyValues[0]) {
        const label = entity.type === entity.category ? entity.type : `${entity.type}: ${entity.category}`;
        layout.push(valueRecord('layout', chunk, entityIndex, entity, { key: `l:${chunk.chunkNumber}:${entityIndex}`, label, doubts: [] }));
      }
    });
  }
  fields.sort(byGroupOrder);
  return { fields, tables, layout, warnings };
}

/** An item table: its header names and a record per cell (empty cells too, so they can be filled in). */
function tableModel(chunk, entityIndex, entity) {
  const { table } = entity;
  const columns = Array.from({ length: table.columnCount }, (_, c) => {
    const header = table.tableHeaders.find((hd) => hd.columnIndex === c);
    return header ? labelOf(header.categoryNormalized ?? header.content) : `Column ${c + 1}`;
  });
  const rows = Object.keys(table.tableRows)
    .map(Number)
    .sort((a, b) => a - b)
    .map((rowIndex) =>
      columns.map((_, columnIndex) => {
        const cell = table.tableRows[rowIndex].find((c) => c.columnIndex === columnIndex);
        const content = cell?.content ?? '';
        return {
          kind: 'cell', key: `c:${chunk.chunkNumber}:${entityIndex}:${rowIndex}:${columnIndex}`, chunkNumber: chunk.chunkNumber, pageNumber: chunk.pageNumber,
          entityIndex, rowIndex, columnIndex, cell, label: columns[columnIndex], original: content, value: content, place: null, accepted: false, doubts: [],
        };
      }),
    );
  return { chunkNumber: chunk.chunkNumber, entityIndex, title: entity.category === 'LineItems' ? 'Line items' : `Table: ${entity.category}`, isItems: entity.category === 'LineItems', columns, rows };
}

/** A record's box on its page, in page units, or null when the value has no place (a slot, data without print). */
export function boxOf(record) {
  if (record.place) return record.place.box;
  const box = record.kind === 'cell' ? record.cell?.boundingBox : record.entity.keyValues[0]?.boundingBox;
  return box && (box.width > 0 || box.height > 0) ? box : null;
}

/** Whether the reviewer still has to look at a record: a doubtful field neither accepted nor changed. */
export function needsAttention(record) {
  return record.doubts.length > 0 && !record.accepted && record.value === record.original && !record.place;
}

/** The words of each page (Line entities carry their words after the line's own value), in reading order. */
export function wordsByPage(task) {
  const pages = new Map();
  for (const chunk of task.chunks) {
    const words = pages.get(chunk.pageNumber) ?? pages.set(chunk.pageNumber, []).get(chunk.pageNumber);
    for (const entity of chunk.entities) {
      if (entity.type !== 'Line') continue;
      for (const word of entity.keyValues.slice(1)) {
        if (word.boundingBox.width > 0 && word.boundingBox.height > 0) words.push({ text: word.content, box: word.boundingBox, offset: word.spans[0]?.offset ?? 0 });
      }
    }
  }
  for (const words of pages.values()) words.sort((a, b) => a.offset - b.offset);
  return pages;
}

/** The words whose centre lies in a box (page units), in reading order. */
export function wordsInside(words, box) {
  return words.filter((w) => {
    const x = w.box.left + w.box.width / 2;
    const y = w.box.top + w.box.height / 2;
    return x >= box.left && x <= box.left + box.width && y >= box.top && y <= box.top + box.height;
  });
}

/** The place a pick of words records: their joint box, a unit wider on each side so their centres stay well inside. */
export function placeOf(pageNumber, words) {
  const left = Math.max(0, Math.min(...words.map((w) => w.box.left)) - 1);
  const top = Math.max(0, Math.min(...words.map((w) => w.box.top)) - 1);
  const right = Math.max(...words.map((w) => w.box.left + w.box.width)) + 1;
  const bottom = Math.max(...words.map((w) => w.box.top + w.box.height)) + 1;
  const round = (n) => Math.round(n * 100) / 100;
  return { pageNumber, box: { left: round(left), top: round(top), width: round(right - left), height: round(bottom - top) } };
}
