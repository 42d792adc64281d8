import { KNOWLEDGE_FILE_EXTENSIONS, KnowledgeType } from '../../api/schemas/knowledge-entry.js';
import { html, type SafeHtml } from '../html.js';
import type { Page } from '../page-shell.js';
import type { ConsolePanel } from './console-panel.js';
import { PANELS } from './console-panels.js';
import { DETAIL_PANELS } from './detail-panels.js';
import { CONSOLE_SCRIPT } from './console-script.js';

const CHANNELS = [
  ['phone', 'Phone (SMS/WhatsApp)'],
  ['photo_social', 'Photo-sharing app'],
  ['social_page', 'Social page chat'],
] as const;

const ATTEMPT_COLUMNS = ['When', 'Endpoint', 'Event', 'Attempt', 'Status code', 'Next retry', 'Delivery id', ''];

/** Forms that act on one panel's resource, shown above its table. */
const PANEL_FORMS: Record<string, SafeHtml> = {
  'comment-rules': html`<p class="row">
    <span>AI replies to comments (workspace-wide): <strong id="comment-ai-state">…</strong></span>
    <button type="button" id="comment-ai">Switch</button>
    <span class="muted">each account has its own switch too (Connected accounts)</span>
  </p>`,
  automations: html`<form id="automation-run" class="row">
    <label
      >Trigger runs on
      <select id="automation-conversation" aria-label="conversation to run on"></select
    ></label>
    <input
      id="automation-variables"
      size="28"
      placeholder="variables {{1}}, {{2}}: Ada, A-1042"
      aria-label="variables, comma-separated"
    />
  </form>`,
  journeys: html`<form id="enroll" class="row">
    <label
      >Enroll runs for the phone <input id="enroll-phone" value="+14155550123" size="16" aria-label="phone to enroll"
    /></label>
    <input
      id="enroll-variables"
      size="28"
      placeholder="variables {{1}}, {{2}}: Ada, A-1042"
      aria-label="journey variables, comma-separated"
    />
    <span class="muted">or, as the shop, fire the business event</span>
    <input id="event-name" placeholder="order.shipped" size="16" aria-label="business event name" required />
    <button class="primary">Fire event</button>
  </form>`,
  'group-knowledge': html`<form id="knowledge-upload" class="row">
    <select id="knowledge-type" aria-label="knowledge type">
      ${KnowledgeType.options.map((type) => html`<option value="${type}">${type}</option>`)}
    </select>
    <input id="knowledge-title" placeholder="Title" size="24" aria-label="knowledge title" required />
    <input
      id="knowledge-file"
      type="file"
      aria-label="knowledge file"
      accept="${KNOWLEDGE_FILE_EXTENSIONS.map((ext) => `.${ext}`).join(',')}"
      required
    />
    <button class="primary">Upload a file</button>
  </form>`,
};

/** An empty table the script fills; it says Loading… until then, so the page is never blank. */
function tablePanel(id: string, title: string, headers: readonly string[], detail = false) {
  return html`<section id="panel-${id}" ${detail ? html`hidden` : ''}>
    <h2 class="row">
      ${title}${detail ? html` <span class="subject"></span> <button type="button" class="close">Close</button>` : ''}
    </h2>
    ${PANEL_FORMS[id] ?? ''}
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

const headersOf = (panel: ConsolePanel) => [...panel.columns.map(([label]) => label), ''];

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
          <form id="comment" class="row">
            <span class="muted">As this customer, comment on</span>
            <select id="comment-account" aria-label="account commented on"></select>
            <input id="comment-post" placeholder="post_latest" size="16" aria-label="post id" />
            <input id="comment-content" placeholder="Comment" size="30" aria-label="comment" required />
            <button class="primary">Comment</button>
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
      ${PANELS.map((panel) => [
        tablePanel(panel.id, panel.title, headersOf(panel)),
        DETAIL_PANELS.filter((detail) => detail.of === panel.id).map((detail) =>
          tablePanel(detail.id, detail.title, headersOf(detail), true),
        ),
      ])}
      ${tablePanel('attempts', 'Webhook delivery attempts', ATTEMPT_COLUMNS)}
    </div>`;
  return {
    title: 'convo-kit emulator console',
    subtitle: 'play the customer, the provider and the clock; watch what the service holds and sends',
    body,
    data: { panels: PANELS, details: DETAIL_PANELS },
    script: CONSOLE_SCRIPT,
  };
}
