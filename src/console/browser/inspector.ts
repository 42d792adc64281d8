// The delivery inspector's page (inspector/inspector-page.ts serves it): filters, refreshes, shows one delivery
// and replays. Every value reaches the DOM as text (dom.ts), so nothing from a body is ever markup.
import {
  attemptLabel,
  deliveryCells,
  statusText,
  type DeliveryDetail,
  type DeliveryRow,
  type InspectorPageData,
} from './delivery-row.js';
import {
  $,
  errorEnvelope,
  fetchJson,
  localTime,
  messageOf,
  notice,
  pageData,
  refillRow,
  RequestError,
  retime,
  rowElement,
  when,
} from './dom.js';
import type { Cell } from './row-cells.js';
import { dropTokenFromAddress } from './token-address.js';

dropTokenFromAddress();
const data = pageData<InspectorPageData>();
const PAGE_SIZE = 50;
const FILTERS = ['status', 'event', 'within', 'before'] as const;
let selected: string | null = null;
let nextCursor = data.nextCursor;
// Rows the list holds: a page more for each "Older deliveries" up to data.maxRows, and every refresh loads as many again.
let wanted = PAGE_SIZE;
// The open delivery as last drawn: a refresh redraws it only when it changed (a selection in its body stays).
let detail: DeliveryDetail | null = null;
const picked = new Set<string>();

const rows = $('rows', HTMLTableSectionElement);
const statusSelect = $('status', HTMLSelectElement);
const eventInput = $('event', HTMLInputElement);
const withinSelect = $('within', HTMLSelectElement);
const beforeInput = $('before', HTMLInputElement);
const filterElements = { status: statusSelect, event: eventInput, within: withinSelect, before: beforeInput };

const listedRows = () => [...rows.rows];
const rowById = (id: string | undefined) => listedRows().find((tr) => tr.dataset.id === id);

/** The signed timestamp (Unix seconds) as an ISO time, or null when it is not one. */
function secondsToIso(value: string): string | null {
  if (!/^[0-9]{1,12}$/.test(value)) return null;
  return new Date(Number(value) * 1000).toISOString();
}

/** A new row of the list, its box ticked when picked. */
function rowFor(d: DeliveryRow): HTMLTableRowElement {
  const tr = rowElement(deliveryCells(d), d.id);
  tr.tabIndex = 0;
  const box = tr.querySelector<HTMLInputElement>('input.pick');
  if (box) box.checked = picked.has(d.id);
  tr.classList.toggle('selected', d.id === selected);
  return tr;
}

/** Draws the rows: the same deliveries in the same order are filled in place, so focus and ticks stay. */
function render(list: DeliveryRow[]): void {
  const current = listedRows();
  if (current.map((tr) => tr.dataset.id).join(' ') === list.map((d) => d.id).join(' ')) {
    list.forEach((d, i) => {
      const tr = current[i]!;
      refillRow(tr, deliveryCells(d));
      tr.classList.toggle('selected', d.id === selected);
    });
  } else {
    const focused = document.activeElement;
    const focusedRow = focused instanceof HTMLElement ? focused.closest<HTMLTableRowElement>('#rows tr') : null;
    rows.replaceChildren(...list.map(rowFor));
    const again = focusedRow ? rowById(focusedRow.dataset.id) : undefined;
    if (again && focused instanceof HTMLElement) {
      (focused.matches('input.pick') ? (again.querySelector<HTMLElement>('input.pick') ?? again) : again).focus();
    }
  }
  $('empty').hidden = list.length > 0;
  $('empty-hint').hidden = false;
  const on = filters();
  $('empty-why').textContent = on.toString()
    ? `No deliveries match the filters (${[...on].map(([k, v]) => `${k} ${v}`).join(', ')}): set them back to all and any time to see every one.`
    : 'No deliveries yet.';
}

/** The filters set, as the address and the list API take them (defaults left out). */
function filters(): URLSearchParams {
  const q = new URLSearchParams();
  if (statusSelect.value !== 'all') q.set('status', statusSelect.value);
  if (eventInput.value.trim()) q.set('event', eventInput.value.trim());
  if (withinSelect.value) q.set('within', withinSelect.value);
  const before = beforeInput.value ? new Date(beforeInput.value) : null;
  if (before && !isNaN(before.getTime())) q.set('before', before.toISOString());
  return q;
}

/** An ISO time as a datetime-local input takes it: this browser's zone, to the second. */
function inputTime(iso: string): string {
  const d = new Date(iso);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())}T${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())}`;
}

const hasOption = (select: HTMLSelectElement, value: string) => [...select.options].some((o) => o.value === value);

/** The filters the address names, so a reload or a shared link shows the same list. */
function filtersFromAddress(): void {
  const q = new URLSearchParams(location.search);
  const within = q.get('within');
  if (within && /^[1-9][0-9]*$/.test(within) && !hasOption(withinSelect, within)) {
    const option = document.createElement('option');
    option.value = within;
    option.textContent = `last ${within} minutes`;
    withinSelect.append(option);
  }
  for (const name of FILTERS) {
    let value = q.get(name);
    if (value === null) continue;
    if (name === 'before') value = isNaN(Date.parse(value)) ? '' : inputTime(value);
    const element = filterElements[name];
    if (!(element instanceof HTMLSelectElement) || hasOption(element, value)) element.value = value;
  }
}

/**
 * The address keeps the filters and, after #, the open delivery (a fragment never reaches the server),
 * without adding a history entry per change.
 */
function toAddress(): void {
  const q = filters().toString();
  const open = selected ? `#${encodeURIComponent(selected)}` : '';
  history.replaceState(null, '', location.pathname + (q ? `?${q}` : '') + open);
}

async function api<T>(path: string, init?: RequestInit): Promise<T> {
  const { response, body } = await fetchJson(data.base + path, init, 'The app serving the inspector');
  if (!response.ok) {
    throw new RequestError(errorEnvelope(body)?.message ?? `HTTP ${response.status}`, response.status);
  }
  return body as T;
}

interface ListPage {
  data: DeliveryRow[];
  next_cursor: string | null;
}

/** The first "wanted" rows under the filters, in pages of at most 200 (the list's limit). */
async function load(): Promise<{ list: DeliveryRow[]; cursor: string | null }> {
  const list: DeliveryRow[] = [];
  let cursor: string | null = null;
  do {
    const q = filters();
    q.set('limit', String(Math.min(200, wanted - list.length)));
    if (cursor) q.set('cursor', cursor);
    const page: ListPage = await api<ListPage>(`/api/deliveries?${q}`);
    list.push(...page.data);
    cursor = page.next_cursor;
  } while (cursor && list.length < wanted);
  return { list, cursor };
}

// A delivery changed when its status or its row's update time did (every attempt writes the row).
const stamp = (d: Pick<DeliveryRow, 'status' | 'updated_at'>) => `${d.status} ${d.updated_at}`;
// The refresh started last; one started earlier (other filters, fewer rows) that answers later draws nothing.
let generation = 0;
let inFlight = 0;
async function refresh(): Promise<void> {
  const mine = ++generation;
  inFlight++;
  try {
    const { list, cursor } = await load();
    if (mine !== generation) return;
    render(list);
    nextCursor = cursor;
    showMore();
    retime();
    $('live').textContent = `live, updated ${localTime(new Date())}`;
    const listed = list.find((d) => d.id === selected);
    if (selected && (!listed || !detail || stamp(listed) !== stamp(detail))) await show(selected, true).catch(gone);
  } catch (error) {
    if (mine !== generation) return;
    $('live').textContent = `not updating: ${messageOf(error)}`;
    // A filter the list API cannot read (400) shows its error in place of the list, never the rows of the
    // filters before it, as the page's own address does (README, the delivery inspector).
    if (error instanceof RequestError && error.status === 400) refused(messageOf(error));
  } finally {
    inFlight--;
  }
}

function refused(message: string): void {
  render([]);
  nextCursor = null;
  showMore();
  $('empty-why').textContent = `The filters cannot be read: ${message}`;
  $('empty-hint').hidden = true;
}

/**
 * The open delivery is not stored: one shown before was pruned (done ones are, after a while), one never shown
 * (an address naming an id no delivery has) is said as the API says it. Closed either way, the list goes on.
 */
function gone(error: unknown): void {
  if (!(error instanceof RequestError) || error.status !== 404) throw error;
  const pruned = detail !== null && detail.id === selected;
  notice(
    pruned ? `Delivery ${selected} is no longer stored (done deliveries are pruned after a while).` : error.message,
    true,
  );
  selected = null;
  toAddress();
  detail = null;
  $('detail-body').hidden = true;
  $('detail-empty').hidden = false;
}

/** "Older deliveries" while the list has room; at data.maxRows, the way on: narrower filters or a jump by time. */
function showMore(): void {
  const full = rows.rows.length >= data.maxRows;
  $('more').hidden = !nextCursor || full;
  $('capped').hidden = !nextCursor || !full;
}

async function more(): Promise<void> {
  const room = data.maxRows - rows.rows.length;
  if (room <= 0 || !nextCursor) return showMore();
  generation++;
  const q = filters();
  q.set('limit', String(Math.min(PAGE_SIZE, room)));
  q.set('cursor', nextCursor);
  const page = await api<ListPage>(`/api/deliveries?${q}`);
  rows.append(...page.data.map(rowFor));
  wanted = rows.rows.length;
  nextCursor = page.next_cursor;
  showMore();
}

/** Lists from the last row shown on: received before it, rounded up to its second (the input's step), so none is skipped. */
function older(): void {
  const at = rows.lastElementChild?.querySelector<HTMLElement>('[data-at]')?.dataset.at;
  if (!at) return;
  beforeInput.value = inputTime(new Date(Math.ceil(Date.parse(at) / 1000) * 1000).toISOString());
  filtered();
}

/** A table body of the detail, drawn from cells by the one row renderer. */
function fillTable(id: string, cells: Cell[][]): void {
  $(id).replaceChildren(...cells.map((row, i) => rowElement(row, String(i))));
}

async function show(id: string, quiet = false): Promise<void> {
  selected = id;
  toAddress();
  for (const tr of listedRows()) tr.classList.toggle('selected', tr.dataset.id === id);
  const d = await api<DeliveryDetail>(`/api/deliveries/${encodeURIComponent(id)}`);
  if (!quiet) notice('');
  if (detail && JSON.stringify(d) === JSON.stringify(detail)) return;
  detail = d;
  $('detail-empty').hidden = true;
  $('detail-body').hidden = false;
  $('d-id').textContent = d.id;
  $('d-status').textContent = d.dead_letter ? 'dead letter' : statusText(d.status);
  $('d-status').className = `status status-${d.status}`;
  $('d-headers').replaceChildren(
    ...Object.entries(d.headers).flatMap(([k, v], i) => {
      const line: (string | HTMLElement)[] = [`${i ? '\n' : ''}${k}: ${v}`];
      const at = k === 'X-Service-Timestamp' ? secondsToIso(v) : null;
      if (at) {
        const span = document.createElement('span');
        span.dataset.at = at;
        span.title = at;
        span.textContent = when(at);
        line.push(' (', span, ')');
      }
      return line;
    }),
  );
  $('d-body').textContent = 'json' in d.body ? JSON.stringify(d.body.json, null, 2) : d.body.text;
  fillTable(
    'd-attempts',
    d.attempts.map((a) => [
      { text: attemptLabel(a) },
      { text: a.outcome ?? 'running', className: `status status-${a.outcome ?? 'processing'}` },
      { text: a.started_at, at: a.started_at },
      { text: a.error ?? '', className: 'error' },
    ]),
  );
  $('d-steps-empty').hidden = d.steps.length > 0;
  $('d-steps-table').hidden = d.steps.length === 0;
  fillTable(
    'd-steps',
    d.steps.map((s) => [
      { text: s.name },
      { text: s.outcome, className: `status status-${s.outcome}` },
      { text: s.finished_at, at: s.finished_at },
      { text: String(s.attempt) },
      { text: s.error ?? '', className: 'error' },
    ]),
  );
}

const countsText = (counts: Record<string, number>) =>
  Object.entries(counts)
    .map(([k, v]) => `${v} ${k}`)
    .join(', ');

/** Replays in requests of at most replayMax ids (the API's bound), one after another: a person ticked them all. */
async function replay(ids: string[]): Promise<void> {
  const counts: Record<string, number> = {};
  try {
    for (let done = 0; done < ids.length; done += data.replayMax) {
      notice(`Replaying ${ids.length}…${done ? ` (${done} done)` : ''}`);
      const { results } = await api<{ results: { outcome: string }[] }>('/api/replay', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ ids: ids.slice(done, done + data.replayMax) }),
      });
      for (const r of results) counts[r.outcome] = (counts[r.outcome] ?? 0) + 1;
    }
    notice(`Replayed: ${countsText(counts)}`);
    picked.clear();
    for (const box of document.querySelectorAll<HTMLInputElement>('input.pick, #pick-all')) box.checked = false;
    pickedChanged();
    await refresh();
  } catch (error) {
    const partly = Object.keys(counts).length ? ` (after ${countsText(counts)})` : '';
    notice(`Replay failed: ${messageOf(error)}${partly}`, true);
  }
}

function pickedChanged(): void {
  const button = $('replay-selected', HTMLButtonElement);
  button.disabled = picked.size === 0;
  button.textContent = picked.size ? `Replay selected (${picked.size})` : 'Replay selected';
}

const pickAll = $('pick-all', HTMLInputElement);
pickAll.addEventListener('change', () => {
  for (const box of rows.querySelectorAll<HTMLInputElement>('input.pick')) {
    box.checked = pickAll.checked;
    if (box.checked) picked.add(box.value);
    else picked.delete(box.value);
  }
  pickedChanged();
});
const open = (id: string) =>
  void show(id)
    .catch(gone)
    .catch((error: unknown) => notice(messageOf(error), true));
rows.addEventListener('click', (event) => {
  if (!(event.target instanceof Element)) return;
  const box = event.target.closest<HTMLInputElement>('input.pick');
  if (box) {
    if (box.checked) picked.add(box.value);
    else picked.delete(box.value);
    pickedChanged();
    return;
  }
  const id = event.target.closest<HTMLTableRowElement>('tr')?.dataset.id;
  if (id) open(id);
});
// Keyboard: Tab reaches the rows, Enter or Space opens one, the arrow keys move between them.
rows.addEventListener('keydown', (event) => {
  const tr = event.target;
  if (!(tr instanceof HTMLTableRowElement) || !tr.dataset.id) return;
  const next = tr.nextElementSibling;
  const previous = tr.previousElementSibling;
  if (event.key === 'Enter' || event.key === ' ') open(tr.dataset.id);
  else if (event.key === 'ArrowDown' && next instanceof HTMLElement) next.focus();
  else if (event.key === 'ArrowUp' && previous instanceof HTMLElement) previous.focus();
  else return;
  event.preventDefault();
});
$('replay-selected').addEventListener('click', () => void replay([...picked]));
$('d-replay').addEventListener('click', () => void (selected && replay([selected])));
$('more').addEventListener('click', () => void more().catch((error: unknown) => notice(messageOf(error), true)));
$('older').addEventListener('click', older);

function filtered(): void {
  wanted = PAGE_SIZE;
  toAddress();
  void refresh();
}
for (const element of Object.values(filterElements)) element.addEventListener('change', filtered);
filtersFromAddress();
try {
  if (location.hash.length > 1) open(decodeURIComponent(location.hash.slice(1)));
} catch {
  notice(`The address names no delivery after # that can be read: ${location.hash}`, true);
}
void refresh();
// Every two seconds while the tab is seen, and never a second time over one still waiting for its answer.
setInterval(() => {
  if (inFlight === 0 && !document.hidden) void refresh();
}, 2000);
