import { html } from '../html.js';
import type { Page } from '../page-shell.js';
import type { ConsolePageData } from '../browser/console-data.js';
import { panelData, type ConsoleDetailPanel, type ConsolePanel, type PanelToggle } from './console-panel.js';
import { PANELS } from './console-panels.js';
import { DETAIL_PANELS } from './detail-panels.js';

const CHANNELS = [
  ['phone', 'Phone (SMS/WhatsApp)'],
  ['photo_social', 'Photo-sharing app'],
  ['social_page', 'Social page chat'],
] as const;

/** A panel's on/off setting: the script writes its state and the button's label once the panel's answer is in. */
function toggleRow({ label, note }: PanelToggle) {
  return html`<p class="row">
    <span>${label}: <strong class="toggle-state">…</strong></span>
    <button type="button" class="toggle">Switch</button>
    ${note ? html`<span class="muted">${note}</span>` : ''}
  </p>`;
}

/**
 * An empty table the script fills; it says Loading… until then (every panel is asked for when the page
 * opens), so the page is never blank. A detail panel stays hidden, with a Hide button, until its row's button
 * opens it ("Close" is what a conversation's row does to the conversation).
 */
function tablePanel(panel: ConsolePanel | ConsoleDetailPanel) {
  const detail = 'of' in panel;
  return html`<section id="panel-${panel.id}" ${detail ? html`hidden` : ''}>
    <h2 class="row">
      ${panel.title}${detail
        ? html` <span class="subject"></span> <button type="button" class="hide">Hide</button>`
        : ''}
    </h2>
    ${panel.toggle ? toggleRow(panel.toggle) : ''} ${panel.form ?? ''}
    <table>
      <thead>
        <tr>
          ${panel.columns.map(([label]) => html`<th>${label}</th>`)}
          <th></th>
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

/** Where the console serves its browser modules (serve-console.ts). */
export const CONSOLE_ASSETS = '/_emulator/console/assets/';

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
          required
        /><button class="primary">Use key</button>
      </form>
      <p id="key-error" class="error" role="alert" hidden></p>
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
      <p id="notice" class="notice" role="status" hidden></p>
      ${PANELS.map((panel) => [
        tablePanel(panel),
        DETAIL_PANELS.filter((detail) => detail.of === panel.id).map(tablePanel),
      ])}
    </div>`;
  return {
    title: 'convo-kit emulator console',
    subtitle: 'play the customer, the provider and the clock; watch what the service holds and sends',
    body,
    data: { panels: PANELS.map(panelData), details: DETAIL_PANELS.map(panelData) } satisfies ConsolePageData,
    module: `${CONSOLE_ASSETS}console.js`,
  };
}
