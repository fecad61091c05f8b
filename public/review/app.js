// The reviewer page: log in, list my tasks, review one (a document's fields on its page images, or
// a recording's transcript), save the edits, complete the review. Plain DOM and ES modules, no
// build step; the API is /api/v1.0/review (see /docs).
import { api, ApiError, session, whenSessionEnds } from './api.js';
import { $, h, say } from './dom.js';
import { documentReview } from './document-view.js';
import { transcriptReview } from './transcript-view.js';

/** The task open for review and its view (documentReview or transcriptReview). */
let current = null;

/** Runs an action of a button, form or key, reporting its failure instead of losing it. */
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
  leaveTask();
  current = { task, view: task.transcript ? transcriptReview(task) : documentReview(task) };
  $('#task-title').textContent = `#${task.taskId} ${task.displayName}`;
  $('#task-state').textContent = task.checkout ? `checked out until ${new Date(task.checkout.until).toLocaleTimeString()}` : '';
  $('#task-body').replaceChildren(...(await current.view.render()));
  say('');
  show('task-view');
  current.view.start?.();
}

function leaveTask() {
  current?.view.dispose?.();
  current = null;
}

/** Sends what changed since the last save; the versions read make a concurrent save a conflict, not a silent overwrite. */
async function save() {
  const { task, view } = current;
  if (task.transcript) {
    view.saved(await api('PATCH', `tasks/${task.taskId}/transcript`, view.body()));
    $('#task-body').replaceChildren(...view.render());
  } else {
    const body = view.body();
    if (body) {
      const { chunks } = await api('PATCH', `tasks/${task.taskId}/entities`, body);
      const focusedKey = view.saved(chunks);
      $('#task-body').replaceChildren(...(await view.render()));
      view.start(focusedKey);
    }
  }
  say('Saved.');
}

async function complete() {
  await save();
  const result = await api('POST', `tasks/${current.task.taskId}/complete`);
  await showList();
  say(result.reviewComplete ? `Review of task #${result.taskId} completed.` : `Your review of task #${result.taskId} is recorded; other reviewers follow.`);
}

/** Keys of the open task: Ctrl+Enter saves and completes; the rest is the view's (document-view.js LEGEND). */
function onKey(event) {
  if (!current || $('#task-view').hidden) return;
  if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
    event.preventDefault();
    guarded(complete)();
    return;
  }
  current.view.onKey?.(event);
}

// ---- wiring ------------------------------------------------------------------------------------

whenSessionEnds(logOut);
$('#login-form').addEventListener('submit', guarded(logIn));
$('#logout').addEventListener('click', () => logOut());
$('#refresh').addEventListener('click', guarded(showList));
$('#back').addEventListener('click', guarded(showList));
$('#save').addEventListener('click', guarded(save));
$('#complete').addEventListener('click', guarded(complete));
document.addEventListener('keydown', onKey);

if (session.token) guarded(showList)();
else show('login-view');
