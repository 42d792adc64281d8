import { html } from '../html.js';
import type { Page } from '../page-shell.js';
import { INSPECTOR_MAX_ROWS, REPLAY_MAX_IDS, type InspectorRow } from './inspector-api.js';

const STATUSES = ['all', 'pending', 'processing', 'failed', 'dead', 'done'] as const;
const WINDOWS = [
  ['', 'any time'],
  ['15', 'last 15 minutes'],
  ['60', 'last hour'],
  ['1440', 'last 24 hours'],
  ['10080', 'last 7 days'],
] as const;

const HEADING = {
  title: 'convo-kit delivery inspector',
  subtitle: 'what this receiver took in, what its handlers did, and replay',
};

/** A row as the script's rowFor builds it, so the script can fill the server's rows in place. */
function rowHtml(d: InspectorRow) {
  return html`<tr data-id="${d.id}" tabindex="0">
    <td><input type="checkbox" class="pick" value="${d.id}" aria-label="select ${d.id}" /></td>
    <td data-at="${d.received_at}" title="${d.received_at}">${d.received_at}</td>
    <td class="mono">${d.event}</td>
    <td class="status status-${d.status}">${d.status === 'dead' ? 'dead letter' : d.status}</td>
    <td>${d.attempts}</td>
    <td class="mono">${d.id}</td>
    <td class="error">${d.last_error ?? ''}</td>
  </tr>`;
}

/** The inspector: the first page of deliveries is in the HTML; the script filters, refreshes, shows one and replays. */
export function inspectorPage(input: {
  base: string;
  first: { data: InspectorRow[]; next_cursor: string | null };
}): Page {
  const body = html` <section>
      <div class="row">
        <label
          >Status
          <select id="status">
            ${STATUSES.map((s) => html`<option value="${s}">${s === 'dead' ? 'dead letters' : s}</option>`)}
          </select></label
        >
        <label>Event <input id="event" placeholder="ticket.* or message.received" size="24" /></label>
        <label
          >Received
          <select id="within">
            ${WINDOWS.map(([v, label]) => html`<option value="${v}">${label}</option>`)}
          </select></label
        >
        <label>Received before <input id="before" type="datetime-local" step="1" /></label>
        <button id="replay-selected" disabled>Replay selected</button>
        <span id="live" class="muted">live</span>
        <span id="notice" class="notice" role="status" hidden></span>
      </div>
    </section>
    <div class="grid2">
      <section>
        <h2>Deliveries</h2>
        <table>
          <thead>
            <tr>
              <th><input type="checkbox" id="pick-all" aria-label="select every delivery shown" /></th>
              <th>Received</th>
              <th>Event</th>
              <th>Status</th>
              <th>Attempts</th>
              <th>Delivery id</th>
              <th>Last error</th>
            </tr>
          </thead>
          <tbody id="rows">
            ${input.first.data.map(rowHtml)}
          </tbody>
        </table>
        <p id="empty" class="muted" ${input.first.data.length ? 'hidden' : ''}>
          <span id="empty-why">No deliveries yet.</span> Send one:
          <code>convo-kit trigger ticket.created --to &lt;your webhook URL&gt; --secret &lt;its secret&gt;</code>
        </p>
        <button id="more" ${input.first.next_cursor ? '' : 'hidden'}>Older deliveries</button>
        <p id="capped" class="muted" hidden>
          The list holds at most ${INSPECTOR_MAX_ROWS} deliveries, and more match. Narrow the filters above, or
          <button id="older">show the ones received before the last shown</button>
        </p>
      </section>
      <section id="detail">
        <h2>Delivery</h2>
        <p id="detail-empty" class="muted">Select a delivery to see its headers, body and attempts.</p>
        <div id="detail-body" hidden>
          <p class="row">
            <code id="d-id"></code><span id="d-status" class="status"></span
            ><button id="d-replay" class="primary">Replay</button>
          </p>
          <h2>Headers</h2>
          <pre id="d-headers"></pre>
          <h2>Body</h2>
          <pre id="d-body"></pre>
          <h2>Attempts</h2>
          <table>
            <thead>
              <tr>
                <th>#</th>
                <th>Outcome</th>
                <th>Started</th>
                <th>Error</th>
              </tr>
            </thead>
            <tbody id="d-attempts"></tbody>
          </table>
          <h2>Steps</h2>
          <p id="d-steps-empty" class="muted">No journaled steps (ctx.step, ctx.client, ctx.transaction).</p>
          <table id="d-steps-table">
            <thead>
              <tr>
                <th>Step</th>
                <th>Outcome</th>
                <th>When</th>
                <th>Attempt</th>
                <th>Error</th>
              </tr>
            </thead>
            <tbody id="d-steps"></tbody>
          </table>
        </div>
      </section>
    </div>`;
  return {
    ...HEADING,
    body,
    data: {
      base: input.base,
      nextCursor: input.first.next_cursor,
      replayMax: REPLAY_MAX_IDS,
      maxRows: INSPECTOR_MAX_ROWS,
    },
    script: SCRIPT,
  };
}

/** What an address with a filter the inspector cannot read gets: the reason, as the JSON side names it, and a way on. */
export function queryErrorPage(input: { base: string; message: string }): Page {
  const unfiltered = `${input.base}/`;
  return {
    ...HEADING,
    body: html`<section>
      <h2>This address asks for a list the inspector cannot show</h2>
      <p id="query-error" class="error">${input.message}</p>
      <p><a href="${unfiltered}">Show every delivery</a>, then choose the filters on the page.</p>
    </section>`,
    script: DROP_TOKEN,
  };
}

/**
 * An address with ?token= (INSPECTOR_TOKEN): the server keeps the token in an HttpOnly cookie that the page's
 * requests and a reload present (token-cookie.ts), so the address drops it, and no history entry, bookmark
 * or Referer keeps it.
 */
const DROP_TOKEN = `{
  const address = new URL(location.href);
  if (address.searchParams.has('token')) {
    address.searchParams.delete('token');
    history.replaceState(null, '', address.pathname + address.search + address.hash);
  }
}`;

// Plain browser JavaScript, no build step: DOM built with textContent only, so nothing from a body is ever markup.
const SCRIPT = `${DROP_TOKEN}
const data = pageData;
const PAGE_SIZE = 50;
const FILTERS = ['status', 'event', 'within', 'before'];
let selected = null;
let nextCursor = data.nextCursor;
// Rows the list holds: a page more for each "Older deliveries" up to data.maxRows, and every refresh loads as many again.
let wanted = PAGE_SIZE;
// The open delivery as last drawn: a refresh redraws it only when it changed (a selection in its body stays).
let detail = null;
const picked = new Set();

function when(iso) {
  if (!iso) return '';
  const date = new Date(iso);
  const seconds = Math.round((Date.now() - date.getTime()) / 1000);
  const ago = seconds < 0 ? 'in the future' : seconds < 60 ? seconds + ' s ago' : seconds < 3600 ? Math.round(seconds / 60) + ' min ago'
    : seconds < 86400 ? Math.round(seconds / 3600) + ' h ago' : Math.round(seconds / 86400) + ' d ago';
  return localTime(date) + ' (' + ago + ')';
}
/** The signed timestamp (Unix seconds) as an ISO time, or null when it is not one. */
function secondsToIso(value) {
  if (!/^[0-9]{1,12}$/.test(value)) return null;
  return new Date(Number(value) * 1000).toISOString();
}
/** Every time on the page: its text again, as "ago" moves on. */
function retime() {
  for (const el of document.querySelectorAll('[data-at]')) el.textContent = when(el.dataset.at);
}
function timeCell(tr, iso) {
  const td = cell(tr, when(iso));
  td.dataset.at = iso;
  td.title = iso;
  return td;
}
function rowFor(d) {
  const tr = document.createElement('tr');
  tr.dataset.id = d.id;
  tr.tabIndex = 0;
  const box = document.createElement('input');
  box.type = 'checkbox'; box.className = 'pick'; box.value = d.id; box.checked = picked.has(d.id);
  box.setAttribute('aria-label', 'select ' + d.id);
  cell(tr, '').appendChild(box);
  timeCell(tr, d.received_at);
  cell(tr, d.event, 'mono');
  for (let i = 0; i < 4; i++) cell(tr, '');
  fillRow(tr, d);
  return tr;
}
/** What a row says that can change: its status, attempts and last error. */
function fillRow(tr, d) {
  const [, , , status, attempts, id, error] = tr.cells;
  status.textContent = d.status === 'dead' ? 'dead letter' : d.status;
  status.className = 'status status-' + d.status;
  attempts.textContent = String(d.attempts);
  id.textContent = d.id;
  id.className = 'mono';
  // The list shows an error's start (it may run to 2000 characters); the delivery's own view has it whole.
  const message = d.last_error || '';
  error.textContent = message.length > 300 ? message.slice(0, 299) + '…' : message;
  error.className = 'error';
  tr.classList.toggle('selected', d.id === selected);
}
/** Draws the rows: the same deliveries in the same order are filled in place, so focus and ticks stay. */
function render(rows) {
  const ids = rows.map((d) => d.id).join(' ');
  const current = [...$('rows').children];
  if (current.map((tr) => tr.dataset.id).join(' ') === ids) {
    rows.forEach((d, i) => fillRow(current[i], d));
  } else {
    const focused = document.activeElement;
    const focusedRow = focused && focused.closest ? focused.closest('#rows tr') : null;
    $('rows').replaceChildren(...rows.map(rowFor));
    const again = focusedRow && rowById(focusedRow.dataset.id);
    if (again) (focused.matches('input.pick') ? again.querySelector('input.pick') : again).focus();
  }
  $('empty').hidden = rows.length > 0;
  const on = filters();
  $('empty-why').textContent = on.toString()
    ? 'No deliveries match the filters (' + [...on].map(([k, v]) => k + ' ' + v).join(', ') + '): set them back to all and any time to see every one.'
    : 'No deliveries yet.';
}
const rowById = (id) => [...$('rows').children].find((tr) => tr.dataset.id === id);
/** The filters set, as the address and the list API take them (defaults left out). */
function filters() {
  const q = new URLSearchParams();
  if ($('status').value !== 'all') q.set('status', $('status').value);
  if ($('event').value.trim()) q.set('event', $('event').value.trim());
  if ($('within').value) q.set('within', $('within').value);
  const before = $('before').value && new Date($('before').value);
  if (before && !isNaN(before)) q.set('before', before.toISOString());
  return q;
}
/** An ISO time as a datetime-local input takes it: this browser's zone, to the second. */
function inputTime(iso) {
  const d = new Date(iso);
  const two = (n) => String(n).padStart(2, '0');
  return d.getFullYear() + '-' + two(d.getMonth() + 1) + '-' + two(d.getDate()) + 'T' + two(d.getHours()) + ':'
    + two(d.getMinutes()) + ':' + two(d.getSeconds());
}
/** The filters the address names, so a reload or a shared link shows the same list. */
function filtersFromAddress() {
  const q = new URLSearchParams(location.search);
  const within = q.get('within');
  if (within && /^[1-9][0-9]*$/.test(within) && ![...$('within').options].some((o) => o.value === within)) {
    const option = document.createElement('option');
    option.value = within;
    option.textContent = 'last ' + within + ' minutes';
    $('within').append(option);
  }
  for (const name of FILTERS) {
    let value = q.get(name);
    if (value === null) continue;
    if (name === 'before') value = isNaN(Date.parse(value)) ? '' : inputTime(value);
    if ($(name).tagName !== 'SELECT' || [...$(name).options].some((o) => o.value === value)) $(name).value = value;
  }
}
/**
 * The address keeps the filters and, after #, the open delivery (a fragment never reaches the server),
 * without adding a history entry per change.
 */
function toAddress() {
  const q = filters();
  const open = selected ? '#' + encodeURIComponent(selected) : '';
  history.replaceState(null, '', location.pathname + (q.toString() ? '?' + q : '') + open);
}
async function api(path, init) {
  const { response, body } = await fetchJson(
    data.base + path, init, 'The app serving the inspector');
  if (!response.ok) {
    throw Object.assign(new Error(body.error ? body.error.message : 'HTTP ' + response.status), { status: response.status });
  }
  return body;
}
/** The first "wanted" rows under the filters, in pages of at most 200 (the list's limit). */
async function load() {
  const rows = [];
  let cursor = null;
  do {
    const q = filters();
    q.set('limit', String(Math.min(200, wanted - rows.length)));
    if (cursor) q.set('cursor', cursor);
    const page = await api('/api/deliveries?' + q);
    rows.push(...page.data);
    cursor = page.next_cursor;
  } while (cursor && rows.length < wanted);
  return { rows, cursor };
}
const stamp = (d) => d.status + ' ' + d.attempts + ' ' + d.updated_at;
// The refresh started last; one started earlier (other filters, fewer rows) that answers later draws nothing.
let generation = 0;
let inFlight = 0;
async function refresh() {
  const mine = ++generation;
  inFlight++;
  try {
    const { rows, cursor } = await load();
    if (mine !== generation) return;
    render(rows);
    nextCursor = cursor;
    showMore();
    retime();
    $('live').textContent = 'live, updated ' + localTime(new Date());
    const listed = rows.find((d) => d.id === selected);
    if (selected && (!listed || !detail || stamp(listed) !== stamp(detail))) await show(selected, true).catch(gone);
  } catch (error) {
    if (mine === generation) $('live').textContent = 'not updating: ' + error.message;
  } finally {
    inFlight--;
  }
}
/** The open delivery is no longer stored (done ones are pruned): say so and close it, the list goes on. */
function gone(error) {
  if (error.status !== 404) throw error;
  notice('Delivery ' + selected + ' is no longer stored (done deliveries are pruned after a while).', true);
  selected = null;
  toAddress();
  detail = null;
  $('detail-body').hidden = true;
  $('detail-empty').hidden = false;
}
/** "Older deliveries" while the list has room; at data.maxRows, the way on: narrower filters or a jump by time. */
function showMore() {
  const full = $('rows').children.length >= data.maxRows;
  $('more').hidden = !nextCursor || full;
  $('capped').hidden = !nextCursor || !full;
}
async function more() {
  const room = data.maxRows - $('rows').children.length;
  if (room <= 0) return showMore();
  generation++;
  const q = filters();
  q.set('limit', String(Math.min(PAGE_SIZE, room)));
  q.set('cursor', nextCursor);
  const page = await api('/api/deliveries?' + q);
  $('rows').append(...page.data.map(rowFor));
  wanted = $('rows').children.length;
  nextCursor = page.next_cursor;
  showMore();
}
/** Lists from the last row shown on: received before it, rounded up to its second (the input's step), so none is skipped. */
function older() {
  const last = $('rows').lastElementChild;
  if (!last) return;
  const at = new Date(Math.ceil(Date.parse(last.querySelector('[data-at]').dataset.at) / 1000) * 1000);
  $('before').value = inputTime(at.toISOString());
  filtered();
}
async function show(id, quiet) {
  selected = id;
  toAddress();
  for (const tr of $('rows').children) tr.classList.toggle('selected', tr.dataset.id === id);
  const d = await api('/api/deliveries/' + encodeURIComponent(id));
  if (!quiet) notice('');
  if (detail && JSON.stringify(d) === JSON.stringify(detail)) return;
  detail = d;
  $('detail-empty').hidden = true;
  $('detail-body').hidden = false;
  $('d-id').textContent = d.id;
  $('d-status').textContent = d.dead_letter ? 'dead letter' : d.status;
  $('d-status').className = 'status status-' + d.status;
  $('d-headers').replaceChildren(...Object.entries(d.headers).flatMap(([k, v], i) => {
    const line = [(i ? '\\n' : '') + k + ': ' + v];
    const at = k === 'X-Service-Timestamp' && secondsToIso(v);
    if (at) {
      const span = document.createElement('span');
      span.dataset.at = at;
      span.title = at;
      span.textContent = when(at);
      line.push(' (', span, ')');
    }
    return line;
  }));
  $('d-body').textContent = 'json' in d.body ? JSON.stringify(d.body.json, null, 2) : d.body.text;
  $('d-attempts').replaceChildren(...d.attempts.map((a) => {
    const tr = document.createElement('tr');
    cell(tr, String(a.attempt));
    cell(tr, a.outcome || 'running', 'status status-' + (a.outcome || 'processing'));
    timeCell(tr, a.started_at);
    cell(tr, a.error || '', 'error');
    return tr;
  }));
  $('d-steps-empty').hidden = d.steps.length > 0;
  $('d-steps-table').hidden = d.steps.length === 0;
  $('d-steps').replaceChildren(...d.steps.map((s) => {
    const tr = document.createElement('tr');
    cell(tr, s.name);
    cell(tr, s.outcome, 'status status-' + s.outcome);
    timeCell(tr, s.finished_at);
    cell(tr, String(s.attempt));
    cell(tr, s.error || '', 'error');
    return tr;
  }));
}
/** Replays in requests of at most replayMax ids (the API's bound), one after another: a person ticked them all. */
async function replay(ids) {
  const counts = {};
  try {
    for (let done = 0; done < ids.length; done += data.replayMax) {
      notice('Replaying ' + ids.length + '…' + (done ? ' (' + done + ' done)' : ''));
      const { results } = await api('/api/replay', {
        method: 'POST', headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ ids: ids.slice(done, done + data.replayMax) }),
      });
      for (const r of results) counts[r.outcome] = (counts[r.outcome] || 0) + 1;
    }
    notice('Replayed: ' + Object.entries(counts).map(([k, v]) => v + ' ' + k).join(', '));
    picked.clear();
    for (const box of document.querySelectorAll('input.pick, #pick-all')) box.checked = false;
    pickedChanged();
    await refresh();
  } catch (error) {
    const partly = Object.keys(counts).length ? ' (after ' + Object.entries(counts).map(([k, v]) => v + ' ' + k).join(', ') + ')' : '';
    notice('Replay failed: ' + error.message + partly, true);
  }
}
function pickedChanged() {
  $('replay-selected').disabled = picked.size === 0;
  $('replay-selected').textContent = picked.size ? 'Replay selected (' + picked.size + ')' : 'Replay selected';
}
$('pick-all').addEventListener('change', () => {
  for (const box of $('rows').querySelectorAll('input.pick')) {
    box.checked = $('pick-all').checked;
    if (box.checked) picked.add(box.value); else picked.delete(box.value);
  }
  pickedChanged();
});
const open = (id) => show(id).catch((error) => notice(error.message, true));
$('rows').addEventListener('click', (event) => {
  const box = event.target.closest('input.pick');
  if (box) {
    if (box.checked) picked.add(box.value); else picked.delete(box.value);
    pickedChanged();
    return;
  }
  const tr = event.target.closest('tr');
  if (tr) open(tr.dataset.id);
});
// Keyboard: Tab reaches the rows, Enter or Space opens one, the arrow keys move between them.
$('rows').addEventListener('keydown', (event) => {
  const tr = event.target;
  if (tr.tagName !== 'TR') return;
  if (event.key === 'Enter' || event.key === ' ') open(tr.dataset.id);
  else if (event.key === 'ArrowDown' && tr.nextElementSibling) tr.nextElementSibling.focus();
  else if (event.key === 'ArrowUp' && tr.previousElementSibling) tr.previousElementSibling.focus();
  else return;
  event.preventDefault();
});
$('replay-selected').addEventListener('click', () => replay([...picked]));
$('d-replay').addEventListener('click', () => selected && replay([selected]));
$('more').addEventListener('click', () => more().catch((error) => notice(error.message, true)));
$('older').addEventListener('click', older);
function filtered() {
  wanted = PAGE_SIZE;
  toAddress();
  refresh();
}
for (const id of FILTERS) $(id).addEventListener('change', filtered);
filtersFromAddress();
try {
  if (location.hash.length > 1) open(decodeURIComponent(location.hash.slice(1)));
} catch {
  notice('The address names no delivery after # that can be read: ' + location.hash, true);
}
refresh();
// Every two seconds while the tab is seen, and never a second time over one still waiting for its answer.
setInterval(() => inFlight === 0 && !document.hidden && refresh(), 2000);
`;
