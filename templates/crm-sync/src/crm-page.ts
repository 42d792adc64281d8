import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';

/**
 * A table on the page: rows from a JSON API (`{ data: [...] }`), the listed columns. A column named
 * `…_at` or `…At` holds a time (ISO text or epoch milliseconds), shown in the viewer's locale.
 */
export interface Panel {
  title: string;
  url: string;
  columns: string[];
}

/** A link in the page's header, to another local page (the delivery inspector, the emulator's console). */
export interface PageLink {
  label: string;
  href: string;
}

/** The CRM's own panels; other apps (the sample integration) add theirs. */
export const CRM_PANELS: Panel[] = [
  {
    title: 'Contacts',
    url: '/api/contacts',
    columns: ['name', 'phone', 'lead_stage', 'opted_out', 'opt_keyword', 'updated_at'],
  },
  {
    title: 'Conversations',
    url: '/api/conversations',
    columns: ['customer', 'channel', 'status', 'assignee', 'last_message_preview', 'latest_activity_at'],
  },
  { title: 'Activity', url: '/api/activity?limit=50', columns: ['occurred_at', 'kind', 'contact', 'summary'] },
];

const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** A panel as the server sends it, before the script has fetched its rows, so the page is never blank. */
const loadingPanel = (panel: Panel): string =>
  `<section><h2>${escapeHtml(panel.title)}</h2><p class="muted">Loading…</p></section>`;

const PAGE_STYLE = `
body{font:14px system-ui,sans-serif;margin:1.5rem;color:#222}h1{font-size:1.3rem}h2{font-size:1rem;margin-top:1.5rem}
table{border-collapse:collapse;width:100%}td,th{border-bottom:1px solid #ddd;padding:.25rem .5rem;text-align:left;vertical-align:top}
th{background:#f4f4f4}.muted{color:#888}section{overflow-x:auto}
`;

/**
 * The page's headers: its Content-Security-Policy lets in exactly its own style (by hash) and its script from this
 * origin (crm-page.browser.js: no inline code runs), calls to this origin's API, and nothing else; no framing, no
 * sniffing, no referrer.
 */
export const CRM_PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy': `default-src 'none'; script-src 'self'; style-src 'sha256-${createHash('sha256').update(PAGE_STYLE).digest('base64')}'; connect-src 'self'; img-src data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`,
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
};

/** Where the page's script is served (crmRoutes), from crm-page.browser.js beside this file. */
export const CRM_PAGE_SCRIPT_PATH = '/crm-page.js';

/** The page's script: browser code in a file of its own, type-checked and linted, read once. */
export const crmPageScript = readFileSync(new URL('./crm-page.browser.js', import.meta.url), 'utf8');

/**
 * One HTML page whose script (crm-page.browser.js) polls the JSON API every two seconds (no build step, no
 * framework); the panels it draws travel as JSON data, not as code. It is
 * as wide as the phone showing it (the viewport tag), a table wider than that scrolls in its own section, and
 * its empty icon spares the browser a request that would 404.
 */
export function crmPage(title: string, panels: Panel[] = CRM_PANELS, links: PageLink[] = []): string {
  const nav = links.map((l) => `<a href="${escapeHtml(l.href)}">${escapeHtml(l.label)}</a>`).join(' · ');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><link rel="icon" href="data:,"><title>${escapeHtml(title)}</title>
<style>${PAGE_STYLE}</style></head><body>
<h1>${escapeHtml(title)}</h1>${nav ? `<nav>${nav}</nav>` : ''}<p class="muted">Refreshes every 2 seconds. JSON: ${panels.map((p) => `<a href="${escapeHtml(p.url)}">${escapeHtml(p.url)}</a>`).join(' · ')}</p>
<div id="panels">${panels.map(loadingPanel).join('')}</div>
<script type="application/json" id="crm-panels">${JSON.stringify(panels).replace(/</g, '\\u003c')}</script>
<script type="module" src="${CRM_PAGE_SCRIPT_PATH}"></script>
</body></html>`;
}
