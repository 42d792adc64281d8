// @ts-check
/// <reference lib="dom" />
// The CRM page's script, served at /crm-page.js (crm-page.ts): browser code, type-checked (checkJs in
// tsconfig.json) and linted like the rest of the starter, with no build step. It polls the JSON API every two
// seconds and draws the panels the page lists in its #crm-panels data.

/** @typedef {{ title: string, url: string, columns: string[] }} Panel */

/** @param {unknown} value */
const esc = (value) => String(value ?? '').replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** A column named `…_at` or `…At` holds a time (ISO text or epoch milliseconds). @param {string} column */
const isTime = (column) => /(_at|At)$/.test(column);

/** A cell: a time in the viewer's locale, anything else as text. @param {string} column @param {unknown} value */
function cell(column, value) {
  if ((typeof value !== 'string' && typeof value !== 'number') || value === '' || !isTime(column)) return esc(value);
  const at = new Date(value);
  if (Number.isNaN(at.getTime())) return esc(value);
  return `<time datetime="${at.toISOString()}">${esc(at.toLocaleString())}</time>`;
}

/** One panel's section, from its API's `{ data: [...] }`, or why it is unavailable. @param {Panel} panel */
async function section(panel) {
  try {
    const response = await fetch(panel.url);
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    const { data } = /** @type {{ data: Record<string, unknown>[] }} */ (await response.json());
    const head = panel.columns.map((column) => `<th>${esc(column)}</th>`).join('');
    const rows = data
      .map((row) => `<tr>${panel.columns.map((column) => `<td>${cell(column, row[column])}</td>`).join('')}</tr>`)
      .join('');
    return `<section><h2>${esc(panel.title)} (${data.length})</h2><table><tr>${head}</tr>${rows}</table></section>`;
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    return `<section><h2>${esc(panel.title)}</h2><p class="muted">unavailable: ${esc(why)}</p></section>`;
  }
}

const panels = /** @type {Panel[]} */ (JSON.parse(document.getElementById('crm-panels')?.textContent ?? '[]'));
const shown = document.getElementById('panels');

async function render() {
  if (!shown) return;
  const html = await Promise.all(panels.map(section));
  // Redrawn every two seconds: a table scrolled sideways (on a phone) stays where it was scrolled.
  const scrolled = Array.from(shown.children, (child) => child.scrollLeft);
  shown.innerHTML = html.join('');
  Array.from(shown.children).forEach((child, i) => (child.scrollLeft = scrolled[i] ?? 0));
}

void render();
setInterval(() => void render(), 2000);
