// A document's review: the typed fields grouped as a reviewer reads an invoice (unsure ones marked,
// empty slots for fields not found), the item tables, the layout's detections folded away, and
// the page images. Focusing a value shows where it is printed; clicking a word or dragging a box
// over words on the page fills the focused value with their text and records that place, which
// the save sends with the edit. Keys: see LEGEND.
import { api } from './api.js';
import { h, markChanged, say } from './dom.js';
import { boxOf, GROUPS, needsAttention, placeOf, reviewModel, SURE, wordsByPage, wordsInside } from './fields.js';

export const LEGEND = [
  ['Alt+↓ / Alt+↑', 'next / previous field to check'],
  ['Enter', 'accept it and go on'],
  ['Ctrl+Z', 'undo'],
  ['Ctrl+Enter', 'save and complete'],
  ['Click or drag on the page', 'fill the focused field with those words'],
];

/** A drag shorter than this (screen pixels) is a click on one word. */
const DRAG_PIXELS = 4;
/** A click this close to a word (page units) still picks it. */
const CLICK_SLACK = 1.5;

/**
 * The review of document `task`: render() gives its elements, body() the entity edits to save
 * (null when nothing changed), saved() takes the chunks a save returned, onKey() the page's keys.
 */
export function documentReview(task) {
  let model;
  let records;
  let focused = null;
  const accepted = new Set();
  /** Earlier states of changed values, the last change last: { key, value, place, accepted }. */
  const history = [];
  /** The state of the focused value before the typing that is going on (one undo step per field visit). */
  let typing = null;
  const imageUrls = new Map();
  /** Per page number: { image, words, highlight } of its rendered page. */
  let pageViews = new Map();
  let inputs = new Map();

  function rebuild() {
    model = reviewModel(task);
    records = new Map([...model.fields, ...model.layout, ...model.tables.flatMap((t) => t.rows.flat())].map((r) => [r.key, r]));
    for (const key of accepted) if (records.has(key)) records.get(key).accepted = true;
  }
  rebuild();

  // ---- the state of one value and what shows it --------------------------------------------------

  function remember(record) {
    history.push({ key: record.key, value: record.value, place: record.place, accepted: record.accepted });
  }

  function refresh(record) {
    const input = inputs.get(record.key);
    if (!input) return;
    if (input.value !== record.value) input.value = record.value;
    markChanged(input, record.value !== record.original || record.place !== null);
    const row = input.closest('.field');
    if (row) {
      row.classList.toggle('unsure', needsAttention(record));
      row.classList.toggle('accepted', record.accepted);
      row.classList.toggle('placed', record.place !== null);
      row.classList.toggle('edited', record.value !== record.original);
      row.classList.toggle('slot', record.entity.notDetected && record.value === '');
    }
    if (record === focused) highlight(record);
  }

  /** Shows where the record is printed (or where the reviewer pointed) on its page; hides the other highlights. */
  function highlight(record) {
    for (const [pageNumber, view] of pageViews) {
      const box = record && record.pageNumber === pageNumber ? boxOf(record) : null;
      view.highlight.hidden = !box;
      if (box) {
        placeBox(view.highlight, box, view);
        view.highlight.scrollIntoView({ block: 'nearest', inline: 'nearest' });
      }
    }
  }

  function focusRecord(record) {
    inputs.get(record.key)?.focus();
  }

  // ---- keys ------------------------------------------------------------------------------------

  /** The next (or previous) typed field that still needs a look, after the focused one, round the list. */
  function attentionAfter(step) {
    const list = model.fields;
    const start = focused && focused.kind === 'field' ? list.indexOf(focused) : step > 0 ? -1 : 0;
    for (let i = 1; i <= list.length; i++) {
      const record = list[(start + step * i + list.length * 2) % list.length];
      if (needsAttention(record) && record !== focused) return record;
    }
    return null;
  }

  function goToAttention(step) {
    const next = attentionAfter(step);
    if (next) focusRecord(next);
    else say('Every field has been checked: Ctrl+Enter saves and completes the review.');
  }

  function accept() {
    if (!focused) return;
    if (focused.kind === 'cell') {
      // Enter in a table goes down its column.
      const below = records.get(focused.key.replace(/:(\d+):(\d+)$/, (_, row, column) => `:${Number(row) + 1}:${column}`));
      if (below) focusRecord(below);
      return;
    }
    if (!focused.accepted && focused.value === focused.original && !focused.place) {
      remember(focused);
      focused.accepted = true;
      accepted.add(focused.key);
      refresh(focused);
    }
    goToAttention(1);
  }

  function undo() {
    const last = history.pop();
    if (!last) return say('Nothing to undo.');
    const record = records.get(last.key);
    if (!record) return;
    Object.assign(record, { value: last.value, place: last.place, accepted: last.accepted });
    if (record.accepted) accepted.add(record.key);
    else accepted.delete(record.key);
    typing = null;
    refresh(record);
    focusRecord(record);
    say(`Undone: ${record.label}.`);
  }

  function onKey(event) {
    if (event.altKey && (event.key === 'ArrowDown' || event.key === 'ArrowUp')) {
      event.preventDefault();
      goToAttention(event.key === 'ArrowDown' ? 1 : -1);
    } else if ((event.ctrlKey || event.metaKey) && !event.shiftKey && event.key.toLowerCase() === 'z') {
      event.preventDefault();
      undo();
    } else if (event.key === 'Enter' && !event.ctrlKey && !event.metaKey && !event.altKey && records.has(event.target?.dataset?.key)) {
      event.preventDefault();
      accept();
    }
  }

  // ---- pointing at words on the page -------------------------------------------------------------

  /** Fills the focused value with the words picked on a page and records their place. */
  function fillFrom(pageNumber, words) {
    if (!focused) return say('Focus a field first, then click its words on the page.', true);
    if (words.length === 0) return say('No word there: click a word, or drag a box over words.', true);
    remember(focused);
    typing = null;
    focused.value = words.map((w) => w.text).join(' ');
    // A cell has no place of its own to record; a value stays on its chunk's page.
    const placeable = focused.kind !== 'cell' && pageNumber === focused.pageNumber;
    focused.place = placeable ? placeOf(pageNumber, words) : null;
    focused.accepted = false;
    accepted.delete(focused.key);
    refresh(focused);
    say(placeable || focused.kind === 'cell' ? `${focused.label}: ${focused.value}` : `${focused.label}: filled in; its place is on another page, so it is not recorded.`);
  }

  function pageUnits(view, event) {
    const rect = view.image.getBoundingClientRect();
    const scale = view.image.naturalWidth / rect.width / view.pixelsPerUnit;
    return { x: (event.clientX - rect.left) * scale, y: (event.clientY - rect.top) * scale };
  }

  function startPick(view, down) {
    if (down.button !== 0 || !view.image.naturalWidth) return;
    // Keeps the focus in the field being filled (and the browser from dragging the image).
    down.preventDefault();
    const from = pageUnits(view, down);
    const move = (event) => {
      const moved = Math.hypot(event.clientX - down.clientX, event.clientY - down.clientY) >= DRAG_PIXELS;
      view.band.hidden = !moved;
      if (moved) placeBox(view.band, boxBetween(from, pageUnits(view, event)), view);
    };
    const up = (event) => {
      window.removeEventListener('mousemove', move);
      window.removeEventListener('mouseup', up);
      view.band.hidden = true;
      const dragged = Math.hypot(event.clientX - down.clientX, event.clientY - down.clientY) >= DRAG_PIXELS;
      const to = pageUnits(view, event);
      const box = dragged ? boxBetween(from, to) : { left: to.x - CLICK_SLACK, top: to.y - CLICK_SLACK, width: 2 * CLICK_SLACK, height: 2 * CLICK_SLACK };
      const hit = view.words.find((w) => overlaps(w.box, { left: to.x, top: to.y, width: 0, height: 0 })) ?? view.words.find((w) => overlaps(w.box, box));
      const words = dragged ? wordsInside(view.words, box) : hit ? [hit] : [];
      fillFrom(view.pageNumber, words);
    };
    window.addEventListener('mousemove', move);
    window.addEventListener('mouseup', up);
  }

  // ---- rendering ---------------------------------------------------------------------------------

  function valueInput(record, attributes = {}) {
    const input = h('input', {
      id: `value-${record.key.replaceAll(':', '-')}`,
      value: record.value,
      'data-key': record.key,
      'data-chunk': record.chunkNumber,
      'data-entity': record.entityIndex,
      autocomplete: 'off',
      ...attributes,
    });
    input.addEventListener('focus', () => {
      focused = record;
      typing = null;
      for (const other of document.querySelectorAll('#task-body .focused')) other.classList.remove('focused');
      (input.closest('.field') ?? input).classList.add('focused');
      highlight(record);
    });
    input.addEventListener('input', () => {
      if (!typing) {
        remember(record);
        typing = record.key;
      }
      record.value = input.value;
      refresh(record);
    });
    inputs.set(record.key, input);
    return input;
  }

  function fieldRow(record) {
    const { entity } = record;
    const data = entity.documentData;
    const sure = !entity.notDetected ? h('span', { class: entity.confidence < SURE ? 'confidence low' : 'confidence', title: 'Confidence' }, `${Math.round(entity.confidence * 100)}%`) : null;
    const badge = data ? h('span', { class: 'data-badge', title: `Read from the invoice's data (${data.syntax}${data.fileName ? `, ${data.fileName}` : ''})` }, 'invoice data') : null;
    const input = valueInput(record, { 'data-category': entity.category, placeholder: entity.notDetected ? 'not found: type it, or click its words on the page' : undefined });
    const doubts = record.doubts.filter((d) => d !== 'see the warning');
    const row = h(
      'div',
      { class: data ? 'field data-backed' : 'field', 'data-category': entity.category },
      h('label', { for: input.id }, record.label, h('span', { class: 'category' }, entity.category), sure, badge),
      input,
      doubts.length ? h('p', { class: 'doubt' }, doubts.join(' · ')) : null,
      data?.warning ? h('p', { class: 'data-warning', role: 'alert' }, data.warning) : null,
    );
    return row;
  }

  function tableView(table) {
    return h(
      'section',
      { class: 'group items', 'data-group': table.isItems ? 'items' : 'table' },
      h('h3', {}, table.title),
      h(
        'table',
        { class: 'items-table' },
        h('thead', {}, h('tr', {}, ...table.columns.map((c) => h('th', {}, c)))),
        h('tbody', {}, ...table.rows.map((row) => h('tr', {}, ...row.map((cell) => h('td', {}, valueInput(cell, { 'aria-label': cell.label })))))),
      ),
    );
  }

  function panel() {
    const groups = GROUPS.map((group) => {
      const fields = model.fields.filter((f) => f.group === group.id);
      return fields.length ? h('section', { class: 'group', 'data-group': group.id }, h('h3', {}, group.title), ...fields.map(fieldRow)) : null;
    });
    const layoutRows = model.layout.map((record) => h('div', { class: 'field layout' }, h('label', {}, record.label), valueInput(record)));
    // Without typed fields the layout is what there is to review: shown open.
    const layout = model.layout.length
      ? h('details', { class: 'layout-values', open: model.fields.length === 0 && model.tables.length === 0 }, h('summary', {}, `Layout: ${model.layout.length} lines, paragraphs and key-values`), ...layoutRows)
      : null;
    const legend = h('p', { class: 'legend' }, ...LEGEND.map(([key, what]) => h('span', {}, h('kbd', {}, key), ` ${what}`)));
    const warnings = model.warnings.map((text) => h('p', { class: 'data-warning', role: 'alert' }, text));
    return h('div', { class: 'fields' }, legend, ...warnings, ...groups, ...model.tables.map(tableView), layout);
  }

  async function pageView(page) {
    if (!imageUrls.has(page.pageNumber)) imageUrls.set(page.pageNumber, URL.createObjectURL(await api('GET', page.imageUrl)));
    const image = h('img', { src: imageUrls.get(page.pageNumber), alt: `Page ${page.pageNumber}`, draggable: 'false' });
    const words = wordsByPage(task).get(page.pageNumber) ?? [];
    const view = { pageNumber: page.pageNumber, pixelsPerUnit: page.pixelsPerUnit, image, words, highlight: h('div', { class: 'highlight', hidden: true }), band: h('div', { class: 'band', hidden: true }) };
    const wordBoxes = words.map((w) => h('div', { class: 'word', 'data-text': w.text }));
    const fieldBoxes = model.fields.filter((f) => f.pageNumber === page.pageNumber && boxOf(f));
    // Where the typed fields were read, faintly; a click there is a pick like any other.
    const boxes = fieldBoxes.map((f) => h('div', { class: 'box', title: f.label }));
    image.addEventListener('load', () => {
      words.forEach((w, i) => placeBox(wordBoxes[i], w.box, view));
      fieldBoxes.forEach((f, i) => placeBox(boxes[i], boxOf(f), view));
      if (focused) highlight(focused);
    });
    const element = h('div', { class: 'page-image', 'data-page': page.pageNumber }, image, ...boxes, ...wordBoxes, view.highlight, view.band);
    element.addEventListener('mousedown', (event) => startPick(view, event));
    pageViews.set(page.pageNumber, view);
    return element;
  }

  async function render() {
    pageViews = new Map();
    inputs = new Map();
    const pages = await Promise.all(task.pages.map(pageView));
    const body = h('div', { class: pages.length ? 'document' : 'document no-pages' }, pages.length ? h('div', { class: 'pages' }, ...pages) : null, panel());
    for (const record of records.values()) refresh(record);
    return [body];
  }

  /** After rendering: the focus on the value it was on, else on the first field that needs a look. */
  function start(previousKey) {
    const again = previousKey && records.get(previousKey);
    if (again) focusRecord(again);
    else if (model.fields.some(needsAttention)) goToAttention(1);
    else if (model.fields[0]) focusRecord(model.fields[0]);
  }

  /** The PATCH .../entities body of what changed since the last save, or null. */
  function body() {
    const byChunk = new Map();
    const chunkOf = (chunkNumber) =>
      byChunk.get(chunkNumber) ?? byChunk.set(chunkNumber, { chunkNumber, version: task.chunks.find((c) => c.chunkNumber === chunkNumber).version, edits: [], cellEdits: [] }).get(chunkNumber);
    for (const record of records.values()) {
      if (record.value === record.original && !record.place) continue;
      if (record.kind === 'cell') {
        chunkOf(record.chunkNumber).cellEdits.push({ entityIndex: record.entityIndex, rowIndex: record.rowIndex, columnIndex: record.columnIndex, content: record.value });
      } else if (record.value.trim() !== '' || record.original !== '') {
        chunkOf(record.chunkNumber).edits.push({ entityIndex: record.entityIndex, keyValueIndex: 0, content: record.value, ...(record.place ? { place: record.place } : {}) });
      }
    }
    const chunks = [...byChunk.values()].filter((c) => c.edits.length || c.cellEdits.length).map(({ cellEdits, ...c }) => (cellEdits.length ? { ...c, cellEdits } : c));
    return chunks.length ? { chunks } : null;
  }

  /** Takes the chunks a save returned: what they hold is now the original, and nothing is changed or undoable. */
  function saved(chunks) {
    task.chunks = task.chunks.map((c) => chunks.find((s) => s.chunkNumber === c.chunkNumber) ?? c);
    history.length = 0;
    const key = focused?.key;
    focused = null;
    rebuild();
    return key;
  }

  function dispose() {
    for (const url of imageUrls.values()) URL.revokeObjectURL(url);
  }

  return { render, start, body, saved, onKey, dispose };
}

function boxBetween(a, b) {
  return { left: Math.min(a.x, b.x), top: Math.min(a.y, b.y), width: Math.abs(a.x - b.x), height: Math.abs(a.y - b.y) };
}

function overlaps(a, b) {
  return a.left <= b.left + b.width && b.left <= a.left + a.width && a.top <= b.top + b.height && b.top <= a.top + a.height;
}

/** Places an overlay on a page image in percent of the image, so it follows the image's displayed size. */
function placeBox(element, box, view) {
  const { naturalWidth: width, naturalHeight: height } = view.image;
  if (!width) return;
  const k = view.pixelsPerUnit;
  Object.assign(element.style, {
    left: `${(100 * box.left * k) / width}%`,
    top: `${(100 * box.top * k) / height}%`,
    width: `${(100 * box.width * k) / width}%`,
    height: `${(100 * box.height * k) / height}%`,
  });
}
