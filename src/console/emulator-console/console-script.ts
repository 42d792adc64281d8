/**
 * The console page's script: plain browser JavaScript, no build step; every value reaches the DOM through
 * textContent. It acts with the admin key through the same routes a client uses, and the /_emulator controls.
 */
export const CONSOLE_SCRIPT = `
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

/** One request with the admin key: a JSON body, or a FormData (a knowledge file) sent as multipart. */
async function call(method, path, body) {
  const form = body instanceof FormData;
  const { response, body: json } = await fetchJson(path, {
    method,
    headers: { authorization: 'Bearer ' + key, ...(body && !form ? { 'content-type': 'application/json' } : {}) },
    body: body ? (form ? body : JSON.stringify(body)) : undefined,
  }, 'The emulator');
  if (!response.ok) {
    const error = new Error(json.error ? json.error.code + ': ' + json.error.message : 'HTTP ' + response.status);
    error.status = response.status;
    if (response.status === 429) pausedUntil = Date.now() + 1000 * Number(response.headers.get('retry-after') || 60);
    throw error;
  }
  return json;
}
// The admin key's rate limit is shared with whatever else uses the key (docs/emulator.md): once refused, the
// refresh waits out Retry-After instead of spending the next window too.
let pausedUntil = 0;
// A column path: dotted (through arrays too: replies.content is every reply's content), a|b falls back, =text is literal.
function pick(item, path) {
  for (const alternative of path.split('|')) {
    if (alternative.startsWith('=')) return alternative.slice(1);
    let value = item;
    for (const part of alternative.split('.')) {
      if (Array.isArray(value) && !/^\\d+$/.test(part)) value = value.map((v) => (v == null ? v : v[part]));
      else value = value == null ? undefined : value[part];
    }
    if (value !== undefined && value !== null && value !== '' && !(Array.isArray(value) && value.length === 0)) return value;
  }
  return '';
}
function clip(text) {
  return text.length > 160 ? text.slice(0, 159) + '…' : text;
}
function show(value) {
  if (Array.isArray(value)) return clip(value.map((v) => show(v)).join(', '));
  if (value !== null && typeof value === 'object') {
    const shown = ([name, v]) => name + ': ' + (v !== null && typeof v === 'object' ? JSON.stringify(v) : String(v));
    return clip(Object.entries(value).map(shown).join(', '));
  }
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  // An ISO timestamp, wherever it is (a *_at field, or its fallback), in the reader's own time and locale.
  if (typeof value === 'string' && /^\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d/.test(value) && !isNaN(Date.parse(value))) return localTime(new Date(value));
  return clip(String(value));
}
function button(label, onClick) {
  const b = document.createElement('button');
  b.type = 'button';
  b.textContent = label;
  b.addEventListener('click', () => onClick().then(refresh).catch((error) => notice(error.message, true)));
  return b;
}
const keyOf = (panel, item) => item[panel.key || 'id'];
const itemsOf = (panel, answer) => answer[panel.items || 'data'] || [];
const labelOf = (item) => String(pick(item, 'name|display_name|title|customer.name|customer.handle|id'));
// The row each detail panel was opened for: detail id -> that row's key.
const opened = {};

/** A row action's {…} (row-action.ts) filled from what the click knows: percent-encoded in a path, shown in a notice. */
function fillIn(template, known, inPath) {
  return template.replace(/\\{([^}]+)\\}/g, (_, path) => (inPath ? encodeURIComponent(pick(known, path)) : show(pick(known, path))));
}
/** Whether an item meets a panel's conditions (RowConditions): each field has its value, or not the \`not\` one. */
function matches(when, item) {
  return Object.entries(when || {}).every(([path, wanted]) =>
    wanted !== null && typeof wanted === 'object' ? pick(item, path) !== wanted.not : pick(item, path) === wanted);
}
/** A body field of a row action: a literal, a field of the row, or what an input of the page holds now. */
function bodyValue(value, item) {
  if (value === null || typeof value !== 'object') return value;
  if (value.row) return pick(item, value.row);
  if (value.variables) return variables($(value.variables));
  if (value.file) return $(value.file).files[0];
  const text = $(value.input).value.trim();
  if (!text && value.missing) throw new Error(value.missing);
  return text;
}
async function runAction(action, known) {
  const fields = Object.entries(action.body || {}).map(([name, value]) => [name, bodyValue(value, known.row)]);
  known.body = Object.fromEntries(fields);
  let body = action.body && known.body;
  if (fields.some(([, value]) => value instanceof File)) {
    body = new FormData();
    for (const [name, value] of fields) body.append(name, value);
  }
  known.answer = await call(action.method, fillIn(action.path, known, true), body);
  if (action.follow) known.followed = await call('GET', fillIn(action.follow, known, true));
  if (action.done) notice(fillIn(action.done, known, false));
}
function actions(panel, item) {
  const known = { key: keyOf(panel, item), of: opened[panel.id], row: item };
  const out = (panel.actions || []).filter((action) => matches(action.when, item)).map((action) =>
    button(action.label, () => runAction(action, { ...known })));
  for (const detail of data.details) {
    if (detail.of !== panel.id) continue;
    out.push(button(detail.button, async () => {
      opened[detail.id] = keyOf(panel, item);
      const section = $('panel-' + detail.id);
      section.querySelector('.subject').textContent = labelOf(item);
      section.hidden = false;
      section.scrollIntoView({ block: 'nearest' });
    }));
  }
  return out;
}
function fill(section, rows, panel) {
  const body = section.querySelector('tbody');
  if (rows.length === 0) {
    const tr = document.createElement('tr');
    cell(tr, panel.empty || 'Nothing yet.', 'muted').colSpan = panel.columns.length + 1;
    body.replaceChildren(tr);
  } else body.replaceChildren(...rows);
}
// The items each panel listed last: a panel \`across\` another lists for each of them.
const listed = {};
/** A panel's answer: its list route, or (across) that route for each of the first items of another panel, joined. */
async function list(panel, path) {
  if (!panel.across) return call('GET', path);
  const from = data.panels.find((p) => p.id === panel.across.panel);
  const items = [];
  for (const parent of (listed[from.id] || []).slice(0, panel.across.first)) {
    const page = await call('GET', path.replace(':id', encodeURIComponent(keyOf(from, parent))));
    items.push(...itemsOf(panel, page).map((item) => ({ ...item, of: parent })));
  }
  return { [panel.items || 'data']: items };
}
/** Fills a panel from its list route; an unchanged answer leaves the rows (and a button under the pointer) alone. */
async function refreshPanel(panel, path) {
  const section = $('panel-' + panel.id);
  try {
    const answer = await list(panel, path);
    const items = itemsOf(panel, answer);
    const seen = JSON.stringify(items) + path;
    if (section.dataset.seen !== seen) {
      section.dataset.seen = seen;
      fill(section, items.map((item) => {
        const tr = document.createElement('tr');
        tr.dataset.id = keyOf(panel, item);
        for (const [, column, delivered] of panel.columns) {
          const value = pick(item, column);
          const status = delivered ? (pick(item, delivered) === '' ? 'failed' : 'delivered') : column === 'status' ? value : '';
          cell(tr, show(value), status === '' ? '' : 'status status-' + status);
        }
        cell(tr, '').append(...actions(panel, item));
        return tr;
      }), panel);
    }
    return answer;
  } catch (error) {
    if (error.status === 401 || error.status === 429) throw error;
    delete section.dataset.seen;
    const tr = document.createElement('tr');
    cell(tr, error.message, 'muted').colSpan = panel.columns.length + 1;
    section.querySelector('tbody').replaceChildren(tr);
    return {};
  }
}
for (const detail of data.details) {
  $('panel-' + detail.id).querySelector('.close').addEventListener('click', () => {
    delete opened[detail.id];
    $('panel-' + detail.id).hidden = true;
  });
}
/** Replaces a select's options when they changed, keeping what was chosen. */
function fillSelect(select, options, empty) {
  const wanted = options.length ? options : [['', empty]];
  const seen = JSON.stringify(wanted);
  if (select.dataset.seen === seen) return;
  select.dataset.seen = seen;
  const chosen = select.value;
  select.replaceChildren(...wanted.map(([value, label]) => {
    const option = document.createElement('option');
    option.value = value;
    option.textContent = label;
    return option;
  }));
  if (wanted.some(([value]) => value === chosen)) select.value = chosen;
}
// Only what is on screen (or within MARGIN_PX of it) is asked for: each request counts against the admin key's rate
// limit (docs/emulator.md), and a refresh of every panel spent 14 or more. What scrolls into view is asked for at once.
const MARGIN_PX = 200;
function onScreen(element) {
  const box = element.getBoundingClientRect();
  return box.height > 0 && box.bottom > -MARGIN_PX && box.top < innerHeight + MARGIN_PX;
}
// An element that shows a panel's answer outside its section (data-from) needs that panel too.
for (const panel of data.panels) {
  if (panel.choices) $(panel.choices.select).dataset.from = panel.id;
  if (panel.across) $('panel-' + panel.id).dataset.from = panel.across.panel;
}
function wanted(panel) {
  return onScreen($('panel-' + panel.id)) || [...document.querySelectorAll('[data-from="' + panel.id + '"]')].some(onScreen);
}
/** What else shows a panel's answer: the select of its choices, its toggle, a panel across its items. */
function showElsewhere(panel, answer) {
  const items = itemsOf(panel, answer);
  listed[panel.id] = items;
  const choices = panel.choices;
  if (choices) {
    const offered = items.filter((item) => matches(choices.when, item));
    fillSelect($(choices.select), offered.map((item) => [String(pick(item, choices.value)), fillIn(choices.label, item, false)]), choices.none);
  }
  if (panel.toggle) {
    const on = answer[panel.toggle.field];
    const section = $('panel-' + panel.id);
    section.querySelector('.toggle-state').textContent = on === undefined ? '…' : on ? 'on' : 'off';
    section.querySelector('.toggle').textContent = on ? 'Switch off' : 'Switch on';
    section.querySelector('.toggle').dataset.on = String(Boolean(on));
  }
}
// The parts asked for since the last full refresh: one that scrolls into view is asked for unless it is here.
const fresh = new Set();
/** Asks for what is on screen; \`scrolled\` asks only for what came into view since the last refresh. */
async function refresh(scrolled) {
  try {
    if (!scrolled) {
      const index = await call('GET', '/_emulator');
      $('now').textContent = localTime(new Date(index.now));
      fresh.clear();
    }
    // Nothing is on screen until a key is accepted: the first panel tries it.
    const panels = $('console').hidden ? data.panels.slice(0, 1) : data.panels.filter(wanted);
    for (const panel of panels) {
      if (fresh.has(panel.id)) continue;
      fresh.add(panel.id);
      showElsewhere(panel, await refreshPanel(panel, panel.list));
    }
    for (const detail of data.details) {
      if (!opened[detail.id] || fresh.has(detail.id) || !onScreen($('panel-' + detail.id))) continue;
      fresh.add(detail.id);
      await refreshPanel(detail, detail.list.replace(':id', encodeURIComponent(opened[detail.id])));
    }
    $('console').hidden = false;
    $('key-panel').hidden = true;
  } catch (error) {
    if (error.status === 401 || error.status === 403) {
      $('console').hidden = true;
      $('key-panel').hidden = false;
      $('key-error').hidden = false;
      $('key-error').textContent = 'That key was refused: use the admin key the emulator printed.';
    } else if (error.status === 429) {
      notice('Rate limited: the console refreshes again in ' + Math.ceil((pausedUntil - Date.now()) / 1000) + ' s (' + error.message + ')', true);
    } else notice(error.message, true);
  }
}
$('key-form').addEventListener('submit', (event) => {
  event.preventDefault();
  key = $('key').value.trim();
  sessionStorage.setItem(KEY_SLOT, key);
  refresh();
});
/** Runs a form's action: its outcome in the notice line, then the panels again. */
function act(promise, done) {
  return promise.then((result) => { notice(done(result)); return refresh(); }).catch((error) => notice(error.message, true));
}
function customer() {
  const name = $('name').value.trim();
  return { handle: $('handle').value.trim(), ...(name ? { name } : {}) };
}
function writeIn(content) {
  const body = { channel: $('channel').value, from: customer(), content };
  return act(call('POST', '/_emulator/inbound', body), (r) => 'Wrote in as ' + body.from.handle + ': conversation ' + r.conversation.id);
}
$('inbound').addEventListener('submit', (event) => {
  event.preventDefault();
  writeIn($('content').value).then(() => { $('content').value = ''; });
});
$('stop').addEventListener('click', () => writeIn('STOP'));
$('start').addEventListener('click', () => writeIn('START'));
$('comment').addEventListener('submit', (event) => {
  event.preventDefault();
  const post = $('comment-post').value.trim();
  const body = { integration_id: $('comment-account').value, ...(post ? { post_id: post } : {}), from: customer(), content: $('comment-content').value };
  act(call('POST', '/_emulator/comment', body), (r) =>
    'Commented on ' + r.comment.post_id + ': ' + (r.rule_id ? 'keyword rule ' + r.rule_id + ' replied' : r.ai_reply_queued ? 'an AI reply is on its way' : 'no rule matched and comment AI is off'),
  ).then(() => { $('comment-content').value = ''; });
});
for (const panel of [...data.panels, ...data.details]) {
  const section = $('panel-' + panel.id);
  const toggle = panel.toggle;
  if (toggle) {
    const b = section.querySelector('.toggle');
    b.addEventListener('click', () => act(call('PATCH', toggle.path, { [toggle.field]: b.dataset.on !== 'true' }), (answer) =>
      toggle.label + ': ' + (answer[toggle.field] ? 'on' : 'off')));
  }
  // A panel's form either feeds its row buttons (never submitted) or, with \`submit\`, makes its own request.
  const form = section.querySelector('form');
  if (!form) continue;
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    if (!panel.submit) return;
    runAction(panel.submit, { of: opened[panel.id], row: {} })
      .then(() => { form.reset(); return refresh(); })
      .catch((error) => notice(error.message, true));
  });
}
// The form's own button fires a business event (POST /v1/events) for the phone: the journeys mapped to it enroll it.
$('enroll').addEventListener('submit', (event) => {
  event.preventDefault();
  const body = { event: $('event-name').value.trim(), phone: $('enroll-phone').value.trim(), metadata: variables($('enroll-variables')) };
  act(call('POST', '/v1/events', body), (r) =>
    'Fired ' + r.event + ' for ' + body.phone + ': ' + (r.matched_journeys.length === 0 ? 'no journey listens for it' : 'journeys ' + r.matched_journeys.join(', ') + ' enrolled it as ' + r.enrollment_ids.join(', ')));
});
/** Positional variables from an input holding "Ada, A-1042": {"1": "Ada", "2": "A-1042"}. */
function variables(input) {
  const out = {};
  input.value.split(',').map((v) => v.trim()).filter(Boolean).forEach((v, i) => { out[String(i + 1)] = v; });
  return out;
}
for (const b of document.querySelectorAll('[data-advance]')) {
  b.addEventListener('click', () => act(call('POST', '/_emulator/clock', { advance_seconds: Number(b.dataset.advance) }),
    (r) => 'Emulator time is now ' + localTime(new Date(r.now))));
}
if (key) refresh();
// Every 5 s while the tab is visible: the console shares the admin key's rate limit (docs/keys-and-limits.md) with whatever else uses it.
const mayAsk = () => key && !$('console').hidden && !document.hidden && Date.now() >= pausedUntil;
setInterval(() => { if (mayAsk()) refresh(); }, 5000);
let scrolledTimer;
const inView = new IntersectionObserver((entries) => {
  if (!entries.some((entry) => entry.isIntersecting)) return;
  clearTimeout(scrolledTimer);
  scrolledTimer = setTimeout(() => { if (mayAsk()) refresh(true); }, 150);
}, { rootMargin: MARGIN_PX + 'px' });
for (const element of document.querySelectorAll('#console section, [data-from]')) inView.observe(element);
`;
