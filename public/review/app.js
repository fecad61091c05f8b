// The reviewer page: log in, list my tasks, review one (page images with their detections, or the
// audio with its transcript), save edits, complete the review. Plain DOM, no build step; the
// API is /api/v1.0/review (see /docs).
const API = '/api/v1.0/review';
const $ = (selector) => document.querySelector(selector);

const session = {
  get token() { return sessionStorage.getItem('review.token'); },
  get email() { return sessionStorage.getItem('review.email'); },
  start(token, email) { sessionStorage.setItem('review.token', token); sessionStorage.setItem('review.email', email); },
  end() { sessionStorage.clear(); },
};

/** The task open for review and what has been changed on it since it was last saved. */
let current = null;

class ApiError extends Error {
  constructor(problem) {
    super(problem.detail ?? problem.title ?? 'Request failed');
    this.problem = problem;
  }
}

/** A call of the reviewer API: JSON in, JSON (or an image) out; a problem body becomes an ApiError. */
async function api(method, path, body) {
  const headers = session.token ? { authorization: `Bearer ${session.token}` } : {};
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(path.startsWith('/') ? path : `${API}/${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  if (res.status === 401 && session.token) {
    logOut('Your session has ended: log in again.');
    throw new ApiError({ detail: 'Not logged in' });
  }
  const type = res.headers.get('content-type') ?? '';
  if (!res.ok) throw new ApiError(type.includes('json') ? await res.json() : { detail: `${res.status} ${res.statusText}` });
  return type.includes('json') ? res.json() : res.blob();
}

function say(text, isError = false) {
  const message = $('#message');
  message.textContent = text;
  message.classList.toggle('error', isError);
}

/** Runs an action of a button or form, reporting its failure instead of losing it. */
function guarded(action) {
  return async (event) => {
    event?.preventDefault();
    try {
      await action(event);
    } catch (err) {
      if (err instanceof ApiError || err instanceof TypeError) say(err.message, true);
      else throw err;
    }
  };
}

/** An element with attributes (on* are listeners) and children. */
function h(tag, attributes = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (name.startsWith('on')) element.addEventListener(name.slice(2), value);
    else if (value !== undefined && value !== null && value !== false) element.setAttribute(name, value === true ? '' : String(value));
  }
  element.append(...children.filter((c) => c !== null && c !== undefined));
  return element;
}

function show(view) {
  for (const id of ['login-view', 'list-view', 'task-view']) $(`#${id}`).hidden = id !== view;
  $('#logout').hidden = view === 'login-view';
  $('#who').textContent = view === 'login-view' ? '' : session.email;
}

// ---- login -------------------------------------------------------------------------------------

async function logIn() {
  const form = new FormData($('#login-form'));
  const body = { email: form.get('email'), password: form.get('password') };
  if (!$('#tenant-field').hidden) body.tenantId = Number(form.get('tenantId'));
  try {
    const { access_token: token } = await api('POST', 'login', body);
    session.start(token, body.email);
  } catch (err) {
    // The email belongs to several organizations: the user picks one and logs in again.
    if (err instanceof ApiError && err.problem.title === 'TenantRequired') {
      const select = $('#tenant-field select');
      select.replaceChildren(...err.problem.tenants.map((t) => h('option', { value: t.tenantId }, t.name)));
      $('#tenant-field').hidden = false;
      say('Choose the organization to review for.');
      return;
    }
    throw err;
  }
  $('#login-form').reset();
  $('#tenant-field').hidden = true;
  say('');
  await showList();
}

function logOut(text = '') {
  leaveTask();
  session.end();
  show('login-view');
  say(text, Boolean(text));
}

// ---- task list ---------------------------------------------------------------------------------

const TRANSCRIPT_TASK = 2;

/** A document's pages (those read of them while some are not), a recording's minutes. */
function extentOf(task) {
  if (task.taskType === TRANSCRIPT_TASK) return `${task.totalPages} min`;
  return task.pagesProcessed === task.totalPages ? `${task.totalPages}` : `${task.pagesProcessed} of ${task.totalPages}`;
}

async function showList() {
  leaveTask();
  const page = await api('GET', 'tasks?pageSize=200');
  const rows = page.items.map((task) =>
    h(
      'tr',
      {},
      h('td', {}, `#${task.taskId}`),
      h('td', {}, task.displayName),
      h('td', {}, task.taskStatusText),
      h('td', {}, extentOf(task)),
      h('td', {}, task.checkout ? `${task.checkout.userName} until ${new Date(task.checkout.until).toLocaleTimeString()}` : ''),
      h('td', {}, h('button', { type: 'button', 'data-task-id': task.taskId, onclick: guarded(() => openTask(task.taskId)) }, 'Open')),
    ),
  );
  $('#task-table tbody').replaceChildren(...rows);
  $('#no-tasks').hidden = rows.length > 0;
  show('list-view');
}

// ---- one task ----------------------------------------------------------------------------------

/** Opening a task checks it out, so nobody else edits it meanwhile. */
async function openTask(taskId) {
  await api('POST', `tasks/${taskId}/checkout`);
  const task = await api('GET', `tasks/${taskId}`);
  current = { task, keyValueEdits: new Map(), segmentEdits: new Map(), removedAnnotations: new Set(), objectUrls: [] };
  $('#task-title').textContent = `#${task.taskId} ${task.displayName}`;
  $('#task-state').textContent = task.checkout ? `checked out until ${new Date(task.checkout.until).toLocaleTimeString()}` : '';
  $('#task-body').replaceChildren(...(task.transcript ? transcriptView(task) : await documentView(task)));
  say('');
  show('task-view');
}

function leaveTask() {
  for (const url of current?.objectUrls ?? []) URL.revokeObjectURL(url);
  current = null;
}

function markChanged(input, changed) {
  input.classList.toggle('changed', changed);
}

/** Each page: its image with a box per detection, beside the detections' values to edit. */
async function documentView(task) {
  return Promise.all(
    task.chunks.map(async (chunk) => {
      const page = task.pages.find((p) => p.pageNumber === chunk.pageNumber);
      const boxes = [];
      const fields = [];
      chunk.entities.forEach((entity, entityIndex) => {
        const value = entity.keyValues[0];
        if (!value) return;
        const data = entity.documentData;
        // Why the document's own data was not used: a notice, nothing to edit.
        if (entity.type === 'Warning') {
          fields.push(h('p', { class: 'data-warning', role: 'alert' }, value.content));
          return;
        }
        const input = h('input', { value: value.content, 'data-chunk': chunk.chunkNumber, 'data-entity': entityIndex });
        // A value read from the invoice's data is on the page only where the print states it.
        const located = value.boundingBox.width > 0 || value.boundingBox.height > 0;
        const box = page && located && boxFor(value.boundingBox, page.pixelsPerUnit, () => input.focus());
        input.addEventListener('input', () => {
          const key = `${chunk.chunkNumber}:${entityIndex}`;
          if (input.value === value.content) current.keyValueEdits.delete(key);
          else current.keyValueEdits.set(key, { chunkNumber: chunk.chunkNumber, entityIndex, content: input.value });
          markChanged(input, input.value !== value.content);
        });
        if (box) {
          input.addEventListener('focus', () => box.classList.add('active'));
          input.addEventListener('blur', () => box.classList.remove('active'));
          boxes.push(box);
        }
        const label = entity.type === entity.category ? entity.type : `${entity.type}: ${entity.category}`;
        const badge = data ? h('span', { class: 'data-badge', title: `Read from the invoice's data (${data.syntax}${data.fileName ? `, ${data.fileName}` : ''})` }, 'invoice data') : null;
        const warning = data?.warning ? h('p', { class: 'data-warning', role: 'alert' }, data.warning) : null;
        fields.push(h('div', { class: data ? 'field data-backed' : 'field' }, h('label', {}, label, badge), input, warning));
      });
      const image = page ? await pageImage(page, boxes) : null;
      return h('div', { class: 'page' }, image ?? h('div'), h('div', { class: 'fields' }, h('h3', {}, `Page ${chunk.pageNumber}`), ...fields));
    }),
  );
}

/** A detection's box, placed in percent of the page so it follows the image's displayed size. */
function boxFor(box, pixelsPerUnit, onclick) {
  const element = h('div', { class: 'box', onclick });
  element.dataset.box = JSON.stringify([box.left * pixelsPerUnit, box.top * pixelsPerUnit, box.width * pixelsPerUnit, box.height * pixelsPerUnit]);
  return element;
}

/** The page image is fetched with the token (an <img> cannot send it) and shown from a blob: URL. */
async function pageImage(page, boxes) {
  const url = URL.createObjectURL(await api('GET', page.imageUrl));
  current.objectUrls.push(url);
  const img = h('img', { src: url, alt: `Page ${page.pageNumber}` });
  img.addEventListener('load', () => {
    for (const box of boxes) {
      const [left, top, width, height] = JSON.parse(box.dataset.box);
      Object.assign(box.style, {
        left: `${(100 * left) / img.naturalWidth}%`,
        top: `${(100 * top) / img.naturalHeight}%`,
        width: `${(100 * width) / img.naturalWidth}%`,
        height: `${(100 * height) / img.naturalHeight}%`,
      });
    }
  });
  return h('div', { class: 'page-image' }, img, ...boxes);
}

function seconds(value) {
  return `${Math.floor(value / 60)}:${(value % 60).toFixed(1).padStart(4, '0')}`;
}

/** The recording, its segments (speaker and text to edit) and its annotations. */
function transcriptView(task) {
  const { transcript } = task;
  // A signed link of this service: used by path, so it works whatever base URL it was signed with.
  const link = task.fileUrl && new URL(task.fileUrl);
  const audio = h('audio', { controls: true, preload: 'metadata', src: link ? link.pathname + link.search : undefined });
  const segments = transcript.transcripts.map((segment, index) => {
    const edit = () => current.segmentEdits.get(index) ?? current.segmentEdits.set(index, { index }).get(index);
    const speaker = h(
      'select',
      { onchange: (e) => { edit().speakerId = e.target.value; markChanged(e.target, true); } },
      ...transcript.speakers.map((s) => h('option', { value: s.speakerId, selected: s.speakerId === segment.speakerId }, s.speakerName)),
    );
    const text = h('textarea', { rows: 2, 'data-segment': index, oninput: (e) => { edit().displayText = e.target.value; markChanged(e.target, true); } }, segment.displayText);
    const seek = h('button', { type: 'button', onclick: () => { audio.currentTime = segment.start; audio.play(); } }, seconds(segment.start));
    return h('div', { class: 'segment' }, seek, speaker, text);
  });
  const annotations = h('div', { class: 'segments', id: 'annotations' }, ...transcript.annotations.map((a) => annotationRow(a)));
  const add = h('button', { type: 'button', onclick: () => annotations.append(annotationRow({ content: '', start: audio.currentTime, end: audio.currentTime }, true)) }, 'Add annotation');
  return [audio, h('div', { class: 'segments' }, ...segments), h('h3', {}, 'Annotations'), annotations, add];
}

function annotationRow(annotation, isNew = false) {
  const field = (name, value, type = 'text') =>
    h('input', { name, type, step: type === 'number' ? '0.1' : undefined, value, oninput: (e) => { row.dataset.changed = 'true'; markChanged(e.target, true); } });
  const row = h(
    'div',
    { class: 'annotation', 'data-unique-id': annotation.uniqueId, 'data-changed': isNew ? 'true' : undefined },
    field('content', annotation.content),
    field('start', annotation.start, 'number'),
    field('end', annotation.end, 'number'),
    h('button', { type: 'button', onclick: () => { if (annotation.uniqueId) current.removedAnnotations.add(annotation.uniqueId); row.remove(); } }, 'Remove'),
  );
  return row;
}

/** Sends what changed since the last save; the versions read make a concurrent save a conflict, not a silent overwrite. */
async function save() {
  const { task } = current;
  if (task.transcript) {
    const annotations = [...document.querySelectorAll('#annotations [data-changed]')].map((row) => ({
      ...(row.dataset.uniqueId ? { uniqueId: row.dataset.uniqueId } : {}),
      content: row.querySelector('[name=content]').value,
      start: Number(row.querySelector('[name=start]').value),
      end: Number(row.querySelector('[name=end]').value),
    }));
    task.transcript = await api('PATCH', `tasks/${task.taskId}/transcript`, {
      version: task.transcript.version,
      segments: [...current.segmentEdits.values()],
      annotations,
      removeAnnotations: [...current.removedAnnotations],
    });
    current.segmentEdits.clear();
    current.removedAnnotations.clear();
    $('#task-body').replaceChildren(...transcriptView(task));
  } else if (current.keyValueEdits.size) {
    const byChunk = new Map();
    for (const { chunkNumber, entityIndex, content } of current.keyValueEdits.values()) {
      const chunk = byChunk.get(chunkNumber) ?? byChunk.set(chunkNumber, { chunkNumber, version: task.chunks.find((c) => c.chunkNumber === chunkNumber).version, edits: [] }).get(chunkNumber);
      chunk.edits.push({ entityIndex, keyValueIndex: 0, content });
    }
    const { chunks } = await api('PATCH', `tasks/${task.taskId}/entities`, { chunks: [...byChunk.values()] });
    task.chunks = task.chunks.map((c) => chunks.find((saved) => saved.chunkNumber === c.chunkNumber) ?? c);
    current.keyValueEdits.clear();
    for (const input of document.querySelectorAll('#task-body .changed')) markChanged(input, false);
  }
  say('Saved.');
}

async function complete() {
  await save();
  const result = await api('POST', `tasks/${current.task.taskId}/complete`);
  await showList();
  say(result.reviewComplete ? `Review of task #${result.taskId} completed.` : `Your review of task #${result.taskId} is recorded; other reviewers follow.`);
}

// ---- wiring ------------------------------------------------------------------------------------

$('#login-form').addEventListener('submit', guarded(logIn));
$('#logout').addEventListener('click', () => logOut());
$('#refresh').addEventListener('click', guarded(showList));
$('#back').addEventListener('click', guarded(showList));
$('#save').addEventListener('click', guarded(save));
$('#complete').addEventListener('click', guarded(complete));

if (session.token) guarded(showList)();
else show('login-view');
