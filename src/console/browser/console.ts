// The emulator console's page (emulator-console/console-page.ts serves it). It acts with the admin key through
// the same routes a client uses, and the /_emulator controls; every value reaches the DOM as text (dom.ts).
import type { ActionRequest, ActionValue, ConsolePageData, PanelData, RowConditions } from './console-data.js';
import {
  $,
  errorEnvelope,
  fetchJson,
  localTime,
  messageOf,
  notice,
  pageData,
  RequestError,
  rowElement,
} from './dom.js';
import type { Cell } from './row-cells.js';

const data = pageData<ConsolePageData>();
const KEY_SLOT = 'convo-kit-emulator-admin-key';
let key = sessionStorage.getItem(KEY_SLOT);
// The admin key's rate limit is shared with whatever else uses the key (docs/emulator.md): once refused, the
// refresh waits out Retry-After instead of spending the next window too.
let pausedUntil = 0;

// A link such as /_emulator/console#key=… (the fragment never reaches a server or a log): keep it, clear the address.
function keyFromAddress(): boolean {
  if (!location.hash.startsWith('#key=')) return false;
  key = decodeURIComponent(location.hash.slice(5));
  sessionStorage.setItem(KEY_SLOT, key);
  history.replaceState(null, '', location.pathname);
  return true;
}
keyFromAddress();
addEventListener('hashchange', () => {
  if (keyFromAddress()) void refresh('all');
});

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => value !== null && typeof value === 'object';

/** One request with the admin key: a JSON body, or a FormData (a knowledge file) sent as multipart. */
async function call(method: string, path: string, body?: Json | FormData): Promise<Json> {
  const form = body instanceof FormData;
  const { response, body: answer } = await fetchJson(
    path,
    {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body && !form ? { 'content-type': 'application/json' } : {}) },
      body: body ? (form ? body : JSON.stringify(body)) : undefined,
    },
    'The emulator',
  );
  if (!response.ok) {
    const error = errorEnvelope(answer);
    if (response.status === 429) pausedUntil = Date.now() + 1000 * Number(response.headers.get('retry-after') || 60);
    throw new RequestError(error ? `${error.code}: ${error.message}` : `HTTP ${response.status}`, response.status);
  }
  return isObject(answer) ? answer : {};
}

// A column path: dotted (through arrays too: replies.content is every reply's content), a|b falls back, =text is literal.
function pick(item: unknown, path: string): unknown {
  for (const alternative of path.split('|')) {
    if (alternative.startsWith('=')) return alternative.slice(1);
    let value: unknown = item;
    for (const part of alternative.split('.')) {
      if (Array.isArray(value) && !/^\d+$/.test(part)) value = value.map((v: unknown) => (isObject(v) ? v[part] : v));
      else value = isObject(value) || Array.isArray(value) ? (value as Json)[part] : undefined;
    }
    if (value !== undefined && value !== null && value !== '' && !(Array.isArray(value) && value.length === 0)) {
      return value;
    }
  }
  return '';
}

const clip = (text: string) => (text.length > 160 ? `${text.slice(0, 159)}…` : text);

/** A value as a cell shows it: lists joined, objects as `name: value`, yes/no, times in the reader's zone. */
function show(value: unknown): string {
  if (Array.isArray(value)) return clip(value.map((v) => show(v)).join(', '));
  if (isObject(value)) {
    const shown = ([name, v]: [string, unknown]) => `${name}: ${isObject(v) ? JSON.stringify(v) : String(v)}`;
    return clip(Object.entries(value).map(shown).join(', '));
  }
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  // An ISO timestamp, wherever it is (a *_at field, or its fallback), in the reader's own time and locale.
  if (typeof value === 'string' && /^\d{4}-\d\d-\d\dT\d\d:\d\d/.test(value) && !isNaN(Date.parse(value))) {
    return localTime(new Date(value));
  }
  return clip(String(value));
}

function button(label: string, onClick: () => Promise<unknown>): HTMLButtonElement {
  const b = document.createElement('button');
  b.type = 'button';
  b.textContent = label;
  b.addEventListener('click', () => {
    onClick()
      .then(() => refresh('shown'))
      .catch((error: unknown) => notice(messageOf(error), true));
  });
  return b;
}

const keyOf = (panel: PanelData, item: unknown) => String(pick(item, panel.key ?? 'id'));
function itemsOf(panel: PanelData, answer: Json): unknown[] {
  const items = answer[panel.items ?? 'data'];
  return Array.isArray(items) ? items : [];
}
const labelOf = (item: unknown) => String(pick(item, 'name|display_name|title|customer.name|customer.handle|id'));
// The row each detail panel was opened for: detail id -> that row's key.
const opened = new Map<string, string>();
const section = (panel: PanelData) => $(`panel-${panel.id}`);

/** What a button's `{…}` may name: the row's key, the row a detail panel is open for, the row, body and answers. */
interface Known {
  key?: string;
  of?: string;
  row: unknown;
  body?: Json;
  answer?: Json;
  followed?: Json;
}

/** A `{…}` template filled from what the click knows: percent-encoded in a path, shown in a notice. */
function fillIn(template: string, known: unknown, inPath: boolean): string {
  return template.replace(/\{([^}]+)\}/g, (_, path: string) =>
    inPath ? encodeURIComponent(String(pick(known, path))) : show(pick(known, path)),
  );
}

/** Whether an item meets a panel's conditions: each field has its value, or not the `not` one. */
function matches(when: RowConditions | undefined, item: unknown): boolean {
  return Object.entries(when ?? {}).every(([path, wanted]) =>
    isObject(wanted) ? pick(item, path) !== wanted.not : pick(item, path) === wanted,
  );
}

/** Positional variables from an input holding "Ada, A-1042": {"1": "Ada", "2": "A-1042"}. */
function variables(input: HTMLInputElement): Record<string, string> {
  const out: Record<string, string> = {};
  input.value
    .split(',')
    .map((v) => v.trim())
    .filter(Boolean)
    .forEach((v, i) => (out[String(i + 1)] = v));
  return out;
}

/** A body field of a button: a literal, a field of the row, or what an input of the page holds now. */
function bodyValue(value: ActionValue, item: unknown): unknown {
  if (!isObject(value)) return value;
  if ('row' in value) return pick(item, value.row);
  if ('variables' in value) return variables($(value.variables, HTMLInputElement));
  if ('file' in value) return $(value.file, HTMLInputElement).files?.[0];
  const input = $(value.input);
  const text = input instanceof HTMLInputElement || input instanceof HTMLSelectElement ? input.value.trim() : '';
  if (!text && value.missing) throw new Error(value.missing);
  return text;
}

async function runAction(action: ActionRequest, known: Known): Promise<void> {
  const fields = Object.entries(action.body ?? {}).map(([name, value]) => [name, bodyValue(value, known.row)] as const);
  known.body = Object.fromEntries(fields);
  let body: Json | FormData | undefined = action.body && known.body;
  if (fields.some(([, value]) => value instanceof File)) {
    const form = new FormData();
    for (const [name, value] of fields) form.append(name, value instanceof File ? value : String(value));
    body = form;
  }
  known.answer = await call(action.method, fillIn(action.path, known, true), body);
  if (action.follow) known.followed = await call('GET', fillIn(action.follow, known, true));
  if (action.done) notice(fillIn(action.done, known, false));
}

function actions(panel: PanelData, item: unknown): HTMLButtonElement[] {
  const known = { key: keyOf(panel, item), of: opened.get(panel.id), row: item };
  const out = (panel.actions ?? [])
    .filter((action) => matches(action.when, item))
    .map((action) => button(action.label, () => runAction(action, { ...known })));
  for (const detail of data.details) {
    if (detail.detailOf?.panel !== panel.id) continue;
    out.push(
      button(detail.detailOf.button, async () => {
        opened.set(detail.id, keyOf(panel, item));
        const shown = section(detail);
        const subject = shown.querySelector('.subject');
        if (subject) subject.textContent = labelOf(item);
        shown.hidden = false;
        shown.scrollIntoView({ block: 'nearest' });
        await Promise.resolve();
      }),
    );
  }
  return out;
}

/** A one-cell row across the table: what an empty panel says, or why it could not be read. */
function lineRow(panel: PanelData, text: string): HTMLTableRowElement {
  const tr = rowElement([{ text, className: 'muted' }], '');
  tr.cells[0]!.colSpan = panel.columns.length + 1;
  return tr;
}

// The items each panel listed last: a panel `across` another lists for each of them.
const listed = new Map<string, unknown[]>();

/** A panel's answer: its list route, or (across) that route for each of the first items of another panel, joined. */
async function list(panel: PanelData, path: string): Promise<Json> {
  if (!panel.across) return call('GET', path);
  const from = data.panels.find((p) => p.id === panel.across?.panel);
  const items: unknown[] = [];
  if (from) {
    for (const parent of (listed.get(from.id) ?? []).slice(0, panel.across.first)) {
      const page = await call('GET', fillIn(path, { of: keyOf(from, parent) }, true));
      items.push(...itemsOf(panel, page).map((item) => ({ ...(isObject(item) ? item : {}), of: parent })));
    }
  }
  return { [panel.items ?? 'data']: items };
}

/** A row of a panel: its columns (a status coloured by its value) and its buttons, by the one row renderer. */
function panelRow(panel: PanelData, item: unknown): HTMLTableRowElement {
  const cells: Cell[] = panel.columns.map(([, column, delivered]) => {
    const value = pick(item, column);
    const status = delivered
      ? pick(item, delivered) === ''
        ? 'failed'
        : 'delivered'
      : column === 'status'
        ? String(value)
        : '';
    return { text: show(value), className: status === '' ? undefined : `status status-${status}` };
  });
  const tr = rowElement([...cells, { text: '' }], keyOf(panel, item));
  tr.cells[cells.length]!.append(...actions(panel, item));
  return tr;
}

/** Fills a panel from its list route; an unchanged answer leaves the rows (and a button under the pointer) alone. */
async function refreshPanel(panel: PanelData, path: string): Promise<Json> {
  const shown = section(panel);
  const body = shown.querySelector('tbody');
  try {
    const answer = await list(panel, path);
    const items = itemsOf(panel, answer);
    const seen = JSON.stringify(items) + path;
    if (shown.dataset.seen !== seen && body) {
      shown.dataset.seen = seen;
      if (items.length === 0) body.replaceChildren(lineRow(panel, panel.empty ?? 'Nothing yet.'));
      else body.replaceChildren(...items.map((item) => panelRow(panel, item)));
    }
    return answer;
  } catch (error) {
    if (error instanceof RequestError && (error.status === 401 || error.status === 429)) throw error;
    delete shown.dataset.seen;
    body?.replaceChildren(lineRow(panel, messageOf(error)));
    return {};
  }
}

for (const detail of data.details) {
  section(detail)
    .querySelector('.hide')
    ?.addEventListener('click', () => {
      opened.delete(detail.id);
      section(detail).hidden = true;
    });
}

/** Replaces a select's options when they changed, keeping what was chosen. */
function fillSelect(select: HTMLSelectElement, options: [string, string][], empty: string): void {
  const wanted: [string, string][] = options.length ? options : [['', empty]];
  const seen = JSON.stringify(wanted);
  if (select.dataset.seen === seen) return;
  select.dataset.seen = seen;
  const chosen = select.value;
  select.replaceChildren(
    ...wanted.map(([value, label]) => {
      const option = document.createElement('option');
      option.value = value;
      option.textContent = label;
      return option;
    }),
  );
  if (wanted.some(([value]) => value === chosen)) select.value = chosen;
}

/** What else shows a panel's answer: the select of its choices, its toggle, a panel across its items. */
function showElsewhere(panel: PanelData, answer: Json): void {
  const items = itemsOf(panel, answer);
  listed.set(panel.id, items);
  const choices = panel.choices;
  if (choices) {
    const offered = items.filter((item) => matches(choices.when, item));
    fillSelect(
      $(choices.select, HTMLSelectElement),
      offered.map((item) => [String(pick(item, choices.value)), fillIn(choices.label, item, false)]),
      choices.none,
    );
  }
  const toggle = panel.toggle;
  if (toggle) {
    const on = answer[toggle.field];
    const shown = section(panel);
    const state = shown.querySelector('.toggle-state');
    const switcher = shown.querySelector<HTMLButtonElement>('.toggle');
    if (state) state.textContent = on === undefined ? '…' : on ? 'on' : 'off';
    if (switcher) {
      switcher.textContent = on ? 'Switch off' : 'Switch on';
      switcher.dataset.on = String(Boolean(on));
    }
  }
}

// Each request counts against the admin key's rate limit, which the user's own code shares (docs/emulator.md),
// and asking for every panel costs 14 or more. So the page asks for every panel when it opens (nothing waits
// for a scroll to load), and then refreshes what is on screen (or within MARGIN_PX of it); a panel scrolled
// into view that was not asked for since the last refresh is asked for at once.
const MARGIN_PX = 200;
function onScreen(element: HTMLElement): boolean {
  const box = element.getBoundingClientRect();
  return box.height > 0 && box.bottom > -MARGIN_PX && box.top < innerHeight + MARGIN_PX;
}
// An element that shows a panel's answer outside its section (data-from) needs that panel too.
for (const panel of data.panels) {
  if (panel.choices) $(panel.choices.select).dataset.from = panel.id;
  if (panel.across) section(panel).dataset.from = panel.across.panel;
}
function inView(panel: PanelData): boolean {
  return (
    onScreen(section(panel)) || [...document.querySelectorAll<HTMLElement>(`[data-from="${panel.id}"]`)].some(onScreen)
  );
}

/** The parts asked for since the last refresh: one that scrolls into view is asked for unless it is here. */
const fresh = new Set<string>();
const consoleShown = () => !$('console').hidden;

/**
 * Asks the emulator again: `all` every panel (the page opening, a key given), `shown` what is on screen,
 * `scrolled` only what came into view since the last refresh.
 */
async function refresh(which: 'all' | 'shown' | 'scrolled'): Promise<void> {
  try {
    if (which !== 'scrolled') {
      const index = await call('GET', '/_emulator');
      if (typeof index.now === 'string') $('now').textContent = localTime(new Date(index.now));
      fresh.clear();
    }
    // Nothing is on screen until a key is accepted: the first panel tries it, then every one loads.
    if (!consoleShown()) {
      const first = data.panels[0]!;
      showElsewhere(first, await refreshPanel(first, first.list));
      fresh.add(first.id);
      $('console').hidden = false;
      $('key-panel').hidden = true;
      // Taken: the tab's storage holds it, the hidden field need not (a refused key is pasted anew).
      $('key', HTMLInputElement).value = '';
      which = 'all';
    }
    for (const panel of data.panels) {
      if (fresh.has(panel.id) || (which !== 'all' && !inView(panel))) continue;
      fresh.add(panel.id);
      showElsewhere(panel, await refreshPanel(panel, panel.list));
    }
    for (const detail of data.details) {
      const of = opened.get(detail.id);
      if (of === undefined || fresh.has(detail.id) || (which !== 'all' && !onScreen(section(detail)))) continue;
      fresh.add(detail.id);
      await refreshPanel(detail, fillIn(detail.list, { of }, true));
    }
  } catch (error) {
    if (error instanceof RequestError && (error.status === 401 || error.status === 403)) {
      $('console').hidden = true;
      $('key-panel').hidden = false;
      $('key-error').hidden = false;
      $('key-error').textContent = 'That key was refused: use the admin key the emulator printed.';
    } else if (error instanceof RequestError && error.status === 429) {
      const seconds = Math.ceil((pausedUntil - Date.now()) / 1000);
      notice(`Rate limited: the console refreshes again in ${seconds} s (${error.message})`, true);
    } else notice(messageOf(error), true);
  }
}

$('key-form').addEventListener('submit', (event) => {
  event.preventDefault();
  key = $('key', HTMLInputElement).value.trim();
  sessionStorage.setItem(KEY_SLOT, key);
  void refresh('all');
});

/** Runs a form's action: its outcome in the notice line, then the panels on screen again. */
function act<T extends Json>(promise: Promise<T>, done: (result: T) => string): Promise<void> {
  return promise
    .then((result) => {
      notice(done(result));
      return refresh('shown');
    })
    .catch((error: unknown) => notice(messageOf(error), true));
}

const field = (id: string) => $(id, HTMLInputElement);
function customer(): Json {
  const name = field('name').value.trim();
  return { handle: field('handle').value.trim(), ...(name ? { name } : {}) };
}
const textOf = (value: unknown, path: string) => String(pick(value, path));

/** `what` names a stop word, so its notice differs from the message's before it in the same conversation. */
function writeIn(content: string, what = 'Wrote in'): Promise<void> {
  const body = { channel: $('channel', HTMLSelectElement).value, from: customer(), content };
  return act(call('POST', '/_emulator/inbound', body), (r) => {
    return `${what} as ${textOf(body, 'from.handle')}: conversation ${textOf(r, 'conversation.id')}`;
  });
}
$('inbound').addEventListener('submit', (event) => {
  event.preventDefault();
  void writeIn(field('content').value).then(() => (field('content').value = ''));
});
$('stop').addEventListener('click', () => void writeIn('STOP', 'Sent STOP'));
$('start').addEventListener('click', () => void writeIn('START', 'Sent START'));
$('comment').addEventListener('submit', (event) => {
  event.preventDefault();
  const post = field('comment-post').value.trim();
  const body = {
    integration_id: $('comment-account', HTMLSelectElement).value,
    ...(post ? { post_id: post } : {}),
    from: customer(),
    content: field('comment-content').value,
  };
  void act(call('POST', '/_emulator/comment', body), (r) => {
    const outcome = r.rule_id
      ? `keyword rule ${textOf(r, 'rule_id')} replied`
      : r.ai_reply_queued
        ? 'an AI reply is on its way'
        : 'no rule matched and comment AI is off';
    return `Commented on ${textOf(r, 'comment.post_id')}: ${outcome}`;
  }).then(() => (field('comment-content').value = ''));
});

for (const panel of [...data.panels, ...data.details]) {
  const shown = section(panel);
  const toggle = panel.toggle;
  if (toggle) {
    const b = shown.querySelector<HTMLButtonElement>('.toggle');
    b?.addEventListener('click', () => {
      void act(
        call('PATCH', toggle.path, { [toggle.field]: b.dataset.on !== 'true' }),
        (answer) => `${toggle.label}: ${answer[toggle.field] ? 'on' : 'off'}`,
      );
    });
  }
  // A panel's form either feeds its row buttons (never submitted) or, with `submit`, makes its own request.
  const form = shown.querySelector('form');
  if (!form) continue;
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    if (!panel.submit) return;
    runAction(panel.submit, { of: opened.get(panel.id), row: {} })
      .then(() => {
        form.reset();
        return refresh('shown');
      })
      .catch((error: unknown) => notice(messageOf(error), true));
  });
}

// The form's own button fires a business event (POST /v1/events) for the phone: the journeys mapped to it enroll it.
$('enroll').addEventListener('submit', (event) => {
  event.preventDefault();
  const body = {
    event: field('event-name').value.trim(),
    phone: field('enroll-phone').value.trim(),
    metadata: variables(field('enroll-variables')),
  };
  void act(call('POST', '/v1/events', body), (r) => {
    const journeys = Array.isArray(r.matched_journeys) ? r.matched_journeys.map(String) : [];
    const enrollments = Array.isArray(r.enrollment_ids) ? r.enrollment_ids.map(String) : [];
    const outcome =
      journeys.length === 0
        ? 'no journey listens for it'
        : `journeys ${journeys.join(', ')} enrolled it as ${enrollments.join(', ')}`;
    return `Fired ${textOf(r, 'event')} for ${body.phone}: ${outcome}`;
  });
});

for (const b of document.querySelectorAll<HTMLButtonElement>('[data-advance]')) {
  b.addEventListener('click', () => {
    void act(call('POST', '/_emulator/clock', { advance_seconds: Number(b.dataset.advance) }), (r) => {
      return `Emulator time is now ${localTime(new Date(String(r.now)))}`;
    });
  });
}

if (key) void refresh('all');
// Every 5 s while the tab is visible: the console shares the admin key's rate limit (docs/keys-and-limits.md) with whatever else uses it.
const mayAsk = () => key && consoleShown() && !document.hidden && Date.now() >= pausedUntil;
setInterval(() => {
  if (mayAsk()) void refresh('shown');
}, 5000);
let scrolledTimer: ReturnType<typeof setTimeout> | undefined;
const observer = new IntersectionObserver(
  (entries) => {
    if (!entries.some((entry) => entry.isIntersecting)) return;
    clearTimeout(scrolledTimer);
    scrolledTimer = setTimeout(() => {
      if (mayAsk()) void refresh('scrolled');
    }, 150);
  },
  { rootMargin: `${MARGIN_PX}px` },
);
for (const element of document.querySelectorAll('#console section, [data-from]')) observer.observe(element);
