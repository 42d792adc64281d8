import { randomBytes } from 'node:crypto';
import { html, raw, type SafeHtml } from './html.js';

/**
 * The look both local pages share (the emulator console and the delivery inspector): one inline
 * stylesheet, no fonts, images or scripts from anywhere else, so they work offline.
 */
const STYLE = `
:root { color-scheme: light dark; --fg: #1d2330; --muted: #667085; --line: #d9dde5; --bg: #f7f8fa; --card: #fff;
  --ok: #137333; --warn: #b06000; --bad: #c5221f; --accent: #1a56db; }
@media (prefers-color-scheme: dark) { :root { --fg: #e6e8ee; --muted: #98a2b3; --line: #2f3645; --bg: #12151c;
  --card: #1a1f29; --ok: #5bd28a; --warn: #f0b45a; --bad: #ff7b72; --accent: #7aa2ff; } }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--fg); background: var(--bg); }
header { display: flex; gap: 16px; align-items: baseline; padding: 12px 20px; border-bottom: 1px solid var(--line); background: var(--card); }
header h1 { font-size: 16px; margin: 0; }
header .sub { color: var(--muted); }
main { padding: 16px 20px; display: grid; gap: 16px; }
section { background: var(--card); border: 1px solid var(--line); border-radius: 8px; padding: 12px 14px; }
section h2 { font-size: 14px; margin: 0 0 8px; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; padding: 5px 8px; border-bottom: 1px solid var(--line); vertical-align: top; }
/* Where a value may run long with no space in it (an event name, an id, an error), it wraps instead of widening
   the page; only there, as it lets the table narrow a column to a letter's width. */
td.mono, td.error, .notice { overflow-wrap: anywhere; }
th { color: var(--muted); font-weight: 600; font-size: 12px; }
tr.selected td { background: color-mix(in srgb, var(--accent) 12%, transparent); }
tbody tr { cursor: pointer; }
tbody tr:focus-visible { outline: 2px solid var(--accent); outline-offset: -2px; }
code, pre, .mono { font: 12px/1.4 ui-monospace, SFMono-Regular, Menlo, monospace; }
pre { white-space: pre-wrap; word-break: break-all; margin: 0; max-height: 360px; overflow: auto; background: var(--bg); padding: 8px; border-radius: 6px; }
.status { font-weight: 600; }
.status-done, .status-delivered, .status-approved, .status-active, .status-sent, .status-completed { color: var(--ok); }
.status-failed, .status-processing, .status-pending, .status-pending_review, .status-scheduled, .status-sending, .status-paused { color: var(--warn); }
.status-dead, .status-rejected, .status-canceled { color: var(--bad); }
.muted { color: var(--muted); }
.row { display: flex; gap: 8px; flex-wrap: wrap; align-items: center; }
input, select, textarea, button { font: inherit; color: inherit; background: var(--card); border: 1px solid var(--line); border-radius: 6px; padding: 4px 8px; }
button { cursor: pointer; }
button.primary { background: var(--accent); border-color: var(--accent); color: #fff; }
button:disabled { opacity: .5; cursor: default; }
.grid2 { display: grid; grid-template-columns: minmax(0, 3fr) minmax(0, 2fr); gap: 16px; align-items: start; }
@media (max-width: 900px) { .grid2 { grid-template-columns: 1fr; } }
.notice { padding: 6px 10px; border-radius: 6px; background: color-mix(in srgb, var(--accent) 10%, transparent); }
.error { color: var(--bad); }
[hidden] { display: none !important; }
`;

/** Helpers every page script starts with: `$`, the page's data, a text-only table cell, the notice line. */
const SCRIPT_HELPERS = `
const $ = (id) => document.getElementById(id);
const pageData = JSON.parse($('page-data').textContent);
function cell(tr, text, className) {
  const td = document.createElement('td');
  if (className) td.className = className;
  td.textContent = text;
  tr.appendChild(td);
  return td;
}
function notice(text, isError) {
  $('notice').hidden = !text;
  $('notice').textContent = text || '';
  $('notice').classList.toggle('error', Boolean(isError));
}
/** fetch and the answer's JSON; no answer at all, or one that is not JSON, is said in words (not 'Failed to fetch'). */
async function fetchJson(url, init, server) {
  let response;
  try {
    response = await fetch(url, init);
  } catch {
    throw Object.assign(new Error(server + ' did not answer (is it still running?)'), { status: 0 });
  }
  const text = await response.text();
  try {
    return { response, body: text ? JSON.parse(text) : {} };
  } catch {
    throw Object.assign(new Error(server + ' answered HTTP ' + response.status + ', not JSON'), { status: response.status });
  }
}
// In the reader's zone, named, and the month by name: 03/04/2026 is 3 April to some readers and 4 March to others.
const TIME_FORMAT = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'long' });
const localTime = (date) => TIME_FORMAT.format(date);
`;

export interface Page {
  /** Goes into `<title>` and the header. */
  title: string;
  subtitle?: string;
  /** Server-rendered content, so the page shows data before (and without) its script. */
  body: SafeHtml;
  /** The page's own script, inlined under the page's CSP nonce. */
  script: string;
  /** Data for the script, serialised as JSON into a non-executable block. */
  data?: unknown;
}

export interface RenderedPage {
  html: string;
  /** The Content-Security-Policy allowing exactly this page's inline style and script. */
  csp: string;
}

/** JSON placed inside <script type="application/json">: `<` escaped so no value can close the element. */
function jsonForScript(value: unknown): string {
  return JSON.stringify(value ?? null).replace(/</g, '\\u003c');
}

export function renderPage(page: Page): RenderedPage {
  const nonce = randomBytes(16).toString('base64');
  const document = html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <link rel="icon" href="data:," />
        <title>${page.title}</title>
        <style nonce="${nonce}">
          ${raw(STYLE)}
        </style>
      </head>
      <body>
        <header>
          <h1>${page.title}</h1>
          <span class="sub">${page.subtitle ?? ''}</span>
        </header>
        <main>${page.body}</main>
        <script type="application/json" id="page-data">
          ${raw(jsonForScript(page.data))}
        </script>
        <script nonce="${nonce}">
          ${raw(SCRIPT_HELPERS + page.script)};
        </script>
      </body>
    </html>`;
  return {
    html: document.value,
    csp: `default-src 'none'; style-src 'nonce-${nonce}'; script-src 'nonce-${nonce}'; connect-src 'self'; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'`,
  };
}
