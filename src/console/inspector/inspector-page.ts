import { html } from '../html.js';
import type { Page } from '../page-shell.js';
import type { InspectorRow } from './inspector-api.js';

const STATUSES = ['all', 'pending', 'processing', 'failed', 'dead', 'done'] as const;
const WINDOWS = [
  ['', 'any time'],
  ['15', 'last 15 minutes'],
  ['60', 'last hour'],
  ['1440', 'last 24 hours'],
  ['10080', 'last 7 days'],
] as const;

function rowHtml(d: InspectorRow) {
  return html`<tr data-id="${d.id}">
    <td><input type="checkbox" class="pick" value="${d.id}" aria-label="select ${d.id}" /></td>
    <td><time datetime="${d.received_at}">${d.received_at}</time></td>
    <td><code>${d.event}</code></td>
    <td class="status status-${d.status}">${d.status === 'dead' ? 'dead letter' : d.status}</td>
    <td>${d.attempts}</td>
    <td><code>${d.id}</code></td>
    <td class="error">${d.last_error ?? ''}</td>
  </tr>`;
}

/** The inspector: the first page of deliveries is in the HTML; the script filters, refreshes, shows one and replays. */
export function inspectorPage(input: {
  base: string;
  first: { data: InspectorRow[]; next_cursor: string | null };
  token?: string;
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
        <button id="replay-selected" disabled>Replay selected</button>
        <span id="live" class="muted">live</span>
        <span id="notice" class="notice" hidden></span>
      </div>
    </section>
    <div class="grid2">
      <section>
        <h2>Deliveries</h2>
        <table>
          <thead>
            <tr>
              <th></th>
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
          No deliveries match. Send one: <code>convo-kit trigger ticket.created --to …</code>
        </p>
        <button id="more" ${input.first.next_cursor ? '' : 'hidden'}>Older deliveries</button>
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
        </div>
      </section>
    </div>`;
  return {
    title: 'convo-kit delivery inspector',
    subtitle: 'what this receiver took in, what its handlers did, and replay',
    body,
    data: { base: input.base, token: input.token ?? null, nextCursor: input.first.next_cursor },
    script: SCRIPT,
  };
}

// Plain browser JavaScript, no build step: DOM built with textContent only, so nothing from a body is ever markup.
const SCRIPT = `
const data = pageData;
const headers = data.token ? { authorization: 'Bearer ' + data.token } : {};
let selected = null;
let nextCursor = data.nextCursor;
const picked = new Set();

function when(iso) {
  if (!iso) return '';
  const date = new Date(iso);
  const seconds = Math.round((Date.now() - date.getTime()) / 1000);
  const ago = seconds < 60 ? seconds + ' s ago' : seconds < 3600 ? Math.round(seconds / 60) + ' min ago'
    : seconds < 86400 ? Math.round(seconds / 3600) + ' h ago' : Math.round(seconds / 86400) + ' d ago';
  return date.toLocaleString() + ' (' + ago + ')';
}
function rowFor(d) {
  const tr = document.createElement('tr');
  tr.dataset.id = d.id;
  const box = document.createElement('input');
  box.type = 'checkbox'; box.className = 'pick'; box.value = d.id; box.checked = picked.has(d.id);
  box.setAttribute('aria-label', 'select ' + d.id);
  cell(tr, '').appendChild(box);
  cell(tr, when(d.received_at));
  cell(tr, d.event).style.fontFamily = 'ui-monospace, monospace';
  cell(tr, d.status === 'dead' ? 'dead letter' : d.status, 'status status-' + d.status);
  cell(tr, String(d.attempts));
  cell(tr, d.id).style.fontFamily = 'ui-monospace, monospace';
  cell(tr, d.last_error || '', 'error');
  if (d.id === selected) tr.className = 'selected';
  return tr;
}
function query(cursor) {
  const q = new URLSearchParams({ status: $('status').value });
  if ($('event').value.trim()) q.set('event', $('event').value.trim());
  if ($('within').value) q.set('within', $('within').value);
  if (cursor) q.set('cursor', cursor);
  return q;
}
async function api(path, init) {
  const response = await fetch(data.base + path, { ...init, headers: { ...headers, ...(init && init.headers) } });
  const body = await response.json();
  if (!response.ok) throw new Error(body.error ? body.error.message : 'HTTP ' + response.status);
  return body;
}
async function refresh() {
  try {
    const page = await api('/api/deliveries?' + query());
    $('rows').replaceChildren(...page.data.map(rowFor));
    $('empty').hidden = page.data.length > 0;
    nextCursor = page.next_cursor;
    $('more').hidden = !nextCursor;
    $('live').textContent = 'live, updated ' + new Date().toLocaleTimeString();
    if (selected) await show(selected, true);
  } catch (error) {
    $('live').textContent = 'not updating: ' + error.message;
  }
}
async function more() {
  const page = await api('/api/deliveries?' + query(nextCursor));
  $('rows').append(...page.data.map(rowFor));
  nextCursor = page.next_cursor;
  $('more').hidden = !nextCursor;
}
async function show(id, quiet) {
  selected = id;
  for (const tr of $('rows').children) tr.classList.toggle('selected', tr.dataset.id === id);
  const d = await api('/api/deliveries/' + encodeURIComponent(id));
  $('detail-empty').hidden = true;
  $('detail-body').hidden = false;
  $('d-id').textContent = d.id;
  $('d-status').textContent = d.dead_letter ? 'dead letter' : d.status;
  $('d-status').className = 'status status-' + d.status;
  $('d-headers').textContent = Object.entries(d.headers).map(([k, v]) => k + ': ' + v).join('\\n');
  $('d-body').textContent = 'json' in d.body ? JSON.stringify(d.body.json, null, 2) : d.body.text;
  $('d-attempts').replaceChildren(...d.attempts.map((a) => {
    const tr = document.createElement('tr');
    cell(tr, String(a.attempt));
    cell(tr, a.outcome || 'running', 'status status-' + (a.outcome || 'processing'));
    cell(tr, when(a.started_at));
    cell(tr, a.error || '', 'error');
    return tr;
  }));
  if (!quiet) notice('');
}
async function replay(ids) {
  notice('Replaying ' + ids.length + '…');
  try {
    const { results } = await api('/api/replay', {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ ids }),
    });
    const counts = {};
    for (const r of results) counts[r.outcome] = (counts[r.outcome] || 0) + 1;
    notice('Replayed: ' + Object.entries(counts).map(([k, v]) => v + ' ' + k).join(', '));
    picked.clear();
    $('replay-selected').disabled = true;
    await refresh();
  } catch (error) {
    notice('Replay failed: ' + error.message, true);
  }
}
$('rows').addEventListener('click', (event) => {
  const box = event.target.closest('input.pick');
  if (box) {
    if (box.checked) picked.add(box.value); else picked.delete(box.value);
    $('replay-selected').disabled = picked.size === 0;
    return;
  }
  const tr = event.target.closest('tr');
  if (tr) show(tr.dataset.id).catch((error) => notice(error.message, true));
});
$('replay-selected').addEventListener('click', () => replay([...picked]));
$('d-replay').addEventListener('click', () => selected && replay([selected]));
$('more').addEventListener('click', () => more().catch((error) => notice(error.message, true)));
for (const id of ['status', 'within']) $(id).addEventListener('change', refresh);
$('event').addEventListener('change', refresh);
for (const t of document.querySelectorAll('time')) t.textContent = when(t.getAttribute('datetime'));
setInterval(refresh, 2000);
`;
