import { html } from '../html.js';
import type { Page } from '../page-shell.js';

const CHANNELS = [
  ['phone', 'Phone (SMS/WhatsApp)'],
  ['photo_social', 'Photo-sharing app'],
  ['social_page', 'Social page chat'],
] as const;

/** A panel the script fills from one list route; `columns` are dotted paths into each item. */
export interface ConsolePanel {
  id: string;
  title: string;
  /** The list route, relative to the emulator: `/v1/tickets?limit=20`. */
  list: string;
  columns: readonly (readonly [label: string, path: string])[];
}

export const PANELS: readonly ConsolePanel[] = [
  {
    id: 'conversations',
    title: 'Conversations',
    list: '/v1/conversations?limit=20',
    columns: [
      ['Latest activity', 'latest_activity_at'],
      ['Customer', 'customer.name|customer.handle'],
      ['Channel', 'channel'],
      ['Status', 'status'],
      ['Last message', 'last_message_preview'],
      ['Id', 'id'],
    ],
  },
  {
    id: 'tickets',
    title: 'Tickets',
    list: '/v1/tickets?limit=20',
    columns: [
      ['Created', 'created_at'],
      ['Subject', 'subject'],
      ['Kind', 'kind'],
      ['Priority', 'priority'],
      ['Status', 'status'],
      ['Assignee', 'assignee'],
    ],
  },
  {
    id: 'templates',
    title: 'Templates',
    list: '/v1/templates?limit=20',
    columns: [
      ['Name', 'name'],
      ['Category', 'category'],
      ['Status', 'status'],
      ['Id', 'id'],
    ],
  },
  {
    id: 'journeys',
    title: 'Journeys',
    list: '/v1/journeys?limit=20',
    columns: [
      ['Name', 'name'],
      ['Status', 'status'],
      ['Trigger', 'trigger_name'],
      ['Id', 'id'],
    ],
  },
  {
    id: 'campaigns',
    title: 'Campaigns',
    list: '/v1/campaigns?limit=20',
    columns: [
      ['Name', 'name'],
      ['Status', 'status'],
      ['Scheduled', 'scheduled_at'],
      ['Id', 'id'],
    ],
  },
  {
    id: 'webhooks',
    title: 'Webhook endpoints',
    list: '/v1/webhooks?limit=20',
    columns: [
      ['URL', 'url'],
      ['Events', 'events'],
      ['Active', 'is_active'],
      ['Id', 'id'],
    ],
  },
];

const ATTEMPT_COLUMNS = ['When', 'Endpoint', 'Event', 'Attempt', 'Status code', 'Next retry', 'Delivery id', ''];

/** An empty table the script fills; it says Loading… until then, so the page is never blank. */
function tablePanel(id: string, title: string, headers: readonly string[]) {
  return html`<section id="panel-${id}">
    <h2>${title}</h2>
    <table>
      <thead>
        <tr>
          ${headers.map((label) => html`<th>${label}</th>`)}
        </tr>
      </thead>
      <tbody>
        <tr>
          <td class="muted">Loading…</td>
        </tr>
      </tbody>
    </table>
  </section>`;
}

/** The console: play the customer and the provider, move the clock, watch every resource and webhook attempt. */
export function consolePage(): Page {
  const body = html` <section id="key-panel">
      <h2>Admin key</h2>
      <p class="muted">
        The console acts with the emulator's admin key (printed when it started). It is kept in this tab only.
      </p>
      <form id="key-form" class="row">
        <input
          id="key"
          type="password"
          size="48"
          placeholder="svc_live_…"
          autocomplete="off"
          aria-label="admin key"
        /><button class="primary">Use key</button>
      </form>
      <p id="key-error" class="error" hidden></p>
    </section>
    <div id="console" hidden>
      <div class="grid2">
        <section>
          <h2>Play the customer</h2>
          <form id="inbound" class="row">
            <select id="channel" aria-label="channel">
              ${CHANNELS.map(([value, label]) => html`<option value="${value}">${label}</option>`)}
            </select>
            <input id="handle" value="+14155550123" size="16" aria-label="customer handle" />
            <input id="name" value="Ada Customer" size="14" aria-label="customer name" />
            <input id="content" placeholder="Message" size="30" aria-label="message" required />
            <button class="primary">Write in</button>
            <button type="button" id="stop">Send STOP</button>
            <button type="button" id="start">Send START</button>
          </form>
        </section>
        <section>
          <h2>Time</h2>
          <p class="row">
            Emulator time: <strong id="now">…</strong>
            <button type="button" data-advance="3600">+1 hour</button>
            <button type="button" data-advance="86400">+1 day</button>
            <button type="button" data-advance="2592000">+30 days</button>
          </p>
        </section>
      </div>
      <p id="notice" class="notice" hidden></p>
      ${PANELS.map((panel) => tablePanel(panel.id, panel.title, [...panel.columns.map(([label]) => label), '']))}
      ${tablePanel('attempts', 'Webhook delivery attempts', ATTEMPT_COLUMNS)}
    </div>`;
  return {
    title: 'convo-kit emulator console',
    subtitle: 'play the customer, the provider and the clock; watch what the service holds and sends',
    body,
    data: { panels: PANELS },
    script: SCRIPT,
  };
}

// Plain browser JavaScript, no build step; every value reaches the DOM through textContent.
const SCRIPT = `
const data = pageData;
const KEY_SLOT = 'convo-kit-emulator-admin-key';
let key = sessionStorage.getItem(KEY_SLOT);
// A link such as /_emulator/console#key=… (the fragment never reaches a server or a log): keep it, clear the address.
function keyFromAddress() {
  if (!location.hash.startsWith('#key=')) return false;
  key = decodeURIComponent(location.hash.slice(5));
  sessionStorage.setItem(KEY_SLOT, key);
  history.replaceState(null, '', location.pathname);
  return true;
}
keyFromAddress();
addEventListener('hashchange', () => keyFromAddress() && refresh());

async function call(method, path, body) {
  const response = await fetch(path, {
    method,
    headers: { authorization: 'Bearer ' + key, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await response.text();
  const json = text ? JSON.parse(text) : {};
  if (!response.ok) {
    const error = new Error(json.error ? json.error.code + ': ' + json.error.message : 'HTTP ' + response.status);
    error.status = response.status;
    throw error;
  }
  return json;
}
function pick(item, path) {
  for (const alternative of path.split('|')) {
    let value = item;
    for (const part of alternative.split('.')) value = value == null ? undefined : value[part];
    if (value !== undefined && value !== null && value !== '') return value;
  }
  return '';
}
function show(value, path) {
  if (Array.isArray(value)) return value.join(' ');
  if (typeof value === 'string' && /_at$/.test(path) && !isNaN(Date.parse(value))) return new Date(value).toLocaleString();
  return String(value);
}
function button(label, onClick) {
  const b = document.createElement('button');
  b.type = 'button';
  b.textContent = label;
  b.addEventListener('click', () => onClick().then(refresh).catch((error) => notice(error.message, true)));
  return b;
}
function actions(panel, item) {
  const out = [];
  if (panel.id === 'templates' && item.status === 'pending_review') {
    out.push(button('Approve', () => call('POST', '/_emulator/templates/' + item.id + '/review', { status: 'approved' })));
    out.push(button('Reject', () => call('POST', '/_emulator/templates/' + item.id + '/review', { status: 'rejected', reason: 'Rejected in the console' })));
  }
  if (panel.id === 'conversations' && item.status !== 'closed') {
    out.push(button('Hand off', () => call('POST', '/_emulator/handoff', { conversation_id: item.id })));
  }
  return out;
}
function fill(section, rows, columns) {
  const body = section.querySelector('tbody');
  if (rows.length === 0) {
    const tr = document.createElement('tr');
    cell(tr, 'Nothing yet.', 'muted').colSpan = columns;
    body.replaceChildren(tr);
  } else body.replaceChildren(...rows);
}
async function refreshPanel(panel) {
  const section = $('panel-' + panel.id);
  try {
    const page = await call('GET', panel.list);
    fill(section, page.data.map((item) => {
      const tr = document.createElement('tr');
      tr.dataset.id = item.id;
      for (const [, path] of panel.columns) {
        const value = pick(item, path);
        cell(tr, show(value, path), path === 'status' ? 'status status-' + value : '');
      }
      cell(tr, '').append(...actions(panel, item));
      return tr;
    }), panel.columns.length + 1);
    return page.data;
  } catch (error) {
    if (error.status === 401) throw error;
    const tr = document.createElement('tr');
    cell(tr, error.message, 'muted').colSpan = panel.columns.length + 1;
    section.querySelector('tbody').replaceChildren(tr);
    return [];
  }
}
async function refreshAttempts(endpoints) {
  const rows = [];
  for (const endpoint of endpoints.slice(0, 5)) {
    const page = await call('GET', '/v1/webhooks/' + endpoint.id + '/deliveries?limit=10');
    for (const a of page.data) {
      const tr = document.createElement('tr');
      cell(tr, new Date(a.created_at).toLocaleString());
      cell(tr, endpoint.url);
      cell(tr, a.event);
      cell(tr, String(a.attempt));
      cell(tr, a.status_code === null ? 'no answer' : String(a.status_code), a.delivered_at ? 'status status-delivered' : 'status status-failed');
      cell(tr, a.next_retry_at ? new Date(a.next_retry_at).toLocaleString() : '');
      cell(tr, a.delivery_id);
      cell(tr, '').append(button('Resend', async () => {
        await call('POST', '/_emulator/webhooks/deliveries/' + encodeURIComponent(a.delivery_id) + '/resend', {});
        notice('Resent ' + a.delivery_id);
      }));
      rows.push(tr);
    }
  }
  fill($('panel-attempts'), rows, 8);
}
async function refresh() {
  try {
    const index = await call('GET', '/_emulator');
    $('now').textContent = new Date(index.now).toLocaleString();
    let endpoints = [];
    for (const panel of data.panels) {
      const rows = await refreshPanel(panel);
      if (panel.id === 'webhooks') endpoints = rows;
    }
    await refreshAttempts(endpoints);
    $('console').hidden = false;
    $('key-panel').hidden = true;
  } catch (error) {
    if (error.status === 401 || error.status === 403) {
      $('console').hidden = true;
      $('key-panel').hidden = false;
      $('key-error').hidden = false;
      $('key-error').textContent = 'That key was refused: use the admin key the emulator printed.';
    } else notice(error.message, true);
  }
}
$('key-form').addEventListener('submit', (event) => {
  event.preventDefault();
  key = $('key').value.trim();
  sessionStorage.setItem(KEY_SLOT, key);
  refresh();
});
function writeIn(content) {
  return call('POST', '/_emulator/inbound', {
    channel: $('channel').value,
    from: { handle: $('handle').value.trim(), ...($('name').value.trim() ? { name: $('name').value.trim() } : {}) },
    content,
  }).then((result) => { notice('Wrote in as ' + $('handle').value + ': conversation ' + result.conversation.id); return refresh(); })
    .catch((error) => notice(error.message, true));
}
$('inbound').addEventListener('submit', (event) => {
  event.preventDefault();
  writeIn($('content').value).then(() => { $('content').value = ''; });
});
$('stop').addEventListener('click', () => writeIn('STOP'));
$('start').addEventListener('click', () => writeIn('START'));
for (const b of document.querySelectorAll('[data-advance]')) {
  b.addEventListener('click', () => call('POST', '/_emulator/clock', { advance_seconds: Number(b.dataset.advance) })
    .then((r) => { notice('Emulator time is now ' + new Date(r.now).toLocaleString()); return refresh(); })
    .catch((error) => notice(error.message, true)));
}
if (key) refresh();
setInterval(() => { if (key && !$('console').hidden) refresh(); }, 3000);
`;
