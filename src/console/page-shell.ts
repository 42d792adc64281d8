import { randomBytes } from 'node:crypto';
import { html, raw, type SafeHtml } from './html.js';

/**
 * The look both local pages share (the emulator console and the delivery inspector): one inline
 * stylesheet and the page's own browser module (browser/), nothing from anywhere else, so they work offline.
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
/* One column no wider than the window, and a section whose table cannot narrow further scrolls on its own:
   otherwise a 375 px phone gets a page three times its width (the console's forms beside its tables). */
main { padding: 16px 20px; display: grid; grid-template-columns: minmax(0, 1fr); gap: 16px; }
section { background: var(--card); border: 1px solid var(--line); border-radius: 8px; padding: 12px 14px; overflow-x: auto; }
section h2 { font-size: 14px; margin: 0 0 8px; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; padding: 5px 8px; border-bottom: 1px solid var(--line); vertical-align: top; }
/* Where a value may run long with no space in it (an event name, an id, an error), it wraps instead of widening
   the page; only there, as it lets the table narrow a column to a letter's width. */
td.mono, td.error, .notice { overflow-wrap: anywhere; }
/* An event name breaks only after its dots (the row renderer marks them, browser/row-cells.ts): never mid-word. */
td.event { overflow-wrap: normal; word-break: normal; }
th { color: var(--muted); font-weight: 600; font-size: 12px; }
tr.selected td { background: color-mix(in srgb, var(--accent) 12%, transparent); }
tbody tr { cursor: pointer; }
tbody tr:focus-visible { outline: 2px solid var(--accent); outline-offset: -2px; }
code, pre, .mono, td.event { font: 12px/1.4 ui-monospace, SFMono-Regular, Menlo, monospace; }
pre { white-space: pre-wrap; word-break: break-all; margin: 0; max-height: 360px; overflow: auto; background: var(--bg); padding: 8px; border-radius: 6px; }
.status { font-weight: 600; }
.status-done, .status-delivered, .status-approved, .status-active, .status-sent, .status-completed { color: var(--ok); }
.status-failed, .status-processing, .status-pending, .status-pending_review, .status-scheduled, .status-sending, .status-paused { color: var(--warn); }
.status-dead, .status-rejected, .status-canceled { color: var(--bad); }
.muted { color: var(--muted); }
.row { display: flex; gap: 8px; flex-wrap: wrap; align-items: center; }
input, select, textarea, button { font: inherit; color: inherit; background: var(--card); border: 1px solid var(--line); border-radius: 6px; padding: 4px 8px; max-width: 100%; }
button { cursor: pointer; }
button.primary { background: var(--accent); border-color: var(--accent); color: #fff; }
button:disabled { opacity: .5; cursor: default; }
.grid2 { display: grid; grid-template-columns: minmax(0, 3fr) minmax(0, 2fr); gap: 16px; align-items: start; }
@media (max-width: 900px) { .grid2 { grid-template-columns: 1fr; } }
/* On a phone a table scrolls sideways in its section rather than squeeze an error into a column a few letters
   wide, which made a dead letter's row taller than the screen. */
@media (max-width: 600px) { td.error { min-width: 14em; } }
.notice { padding: 6px 10px; border-radius: 6px; background: color-mix(in srgb, var(--accent) 10%, transparent); }
.error { color: var(--bad); }
[hidden] { display: none !important; }
`;

export interface Page {
  /** Goes into `<title>` and the header. */
  title: string;
  subtitle?: string;
  /** Server-rendered content, so the page shows data before (and without) its script. */
  body: SafeHtml;
  /**
   * The address of the page's browser module (browser-modules.ts serves it), loaded under the page's CSP nonce;
   * the modules it imports load from beside it under the same nonce.
   */
  module: string;
  /** Data for the script, serialised as JSON into a non-executable block. */
  data?: unknown;
}

export interface RenderedPage {
  html: string;
  /**
   * The Content-Security-Policy allowing exactly this page's inline style and its module (with the modules it
   * imports, which inherit the nonce): no other script, not even one of the same origin.
   */
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
        <script type="module" nonce="${nonce}" src="${page.module}"></script>
      </body>
    </html>`;
  return {
    html: document.value,
    csp: `default-src 'none'; style-src 'nonce-${nonce}'; script-src 'nonce-${nonce}'; connect-src 'self'; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'`,
  };
}
