import { html } from '../html.js';
import type { Page } from '../page-shell.js';
import { deliveryCells, type DeliveryRow, type InspectorPageData } from '../browser/delivery-row.js';
import { rowHtml } from '../row-html.js';
import { INSPECTOR_MAX_ROWS, REPLAY_MAX_IDS } from './inspector-api.js';

/** Where the inspector serves its browser modules, under its mount path (create-inspector.ts). */
export const INSPECTOR_ASSETS = '/assets/';

const STATUSES = ['all', 'pending', 'processing', 'failed', 'dead', 'done'] as const;
const WINDOWS = [
  ['', 'any time'],
  ['15', 'last 15 minutes'],
  ['60', 'last hour'],
  ['1440', 'last 24 hours'],
  ['10080', 'last 7 days'],
] as const;

const HEADING = {
  title: 'convo-kit delivery inspector',
  subtitle: 'what this receiver took in, what its handlers did, and replay',
};

/** The inspector: the first page of deliveries is in the HTML; the script filters, refreshes, shows one and replays. */
export function inspectorPage(input: {
  base: string;
  first: { data: DeliveryRow[]; next_cursor: string | null };
}): Page {
  const body = html` <section>
      <div class="row">
        <label
          >Status
          <select id="status">
            ${STATUSES.map((s) => html`<option value="${s}">${s === 'dead' ? 'dead letters' : s}</option>`)}
          </select></label
        >
        <label>Event <input id="event" placeholder="ticket.* or message.received" size="24" /></label>
        <label
          >Received
          <select id="within">
            ${WINDOWS.map(([v, label]) => html`<option value="${v}">${label}</option>`)}
          </select></label
        >
        <label>Received before <input id="before" type="datetime-local" step="1" /></label>
        <button id="replay-selected" disabled>Replay selected</button>
        <span id="live" class="muted">live</span>
        <span id="notice" class="notice" role="status" hidden></span>
      </div>
    </section>
    <div class="grid2">
      <section>
        <h2>Deliveries</h2>
        <table>
          <thead>
            <tr>
              <th><input type="checkbox" id="pick-all" aria-label="select every delivery shown" /></th>
              <th>Received</th>
              <th>Event</th>
              <th>Status</th>
              <th title="since it was received or last replayed">Attempts</th>
              <th>Delivery id</th>
              <th>Last error</th>
            </tr>
          </thead>
          <tbody id="rows">
            ${input.first.data.map((d) => rowHtml(deliveryCells(d), d.id))}
          </tbody>
        </table>
        <p id="empty" class="muted" ${input.first.data.length ? 'hidden' : ''}>
          <span id="empty-why">No deliveries yet.</span>
          <span id="empty-hint"
            >Send one:
            <code
              >convo-kit trigger ticket.created --to &lt;your webhook URL&gt; --secret &lt;its secret&gt;</code
            ></span
          >
        </p>
        <button id="more" ${input.first.next_cursor ? '' : 'hidden'}>Older deliveries</button>
        <p id="capped" class="muted" hidden>
          The list holds at most ${INSPECTOR_MAX_ROWS} deliveries, and more match. Narrow the filters above, or
          <button id="older">show the ones received before the last shown</button>
        </p>
      </section>
      <section id="detail">
        <h2>Delivery</h2>
        <p id="detail-empty" class="muted">Select a delivery to see its headers, body and attempts.</p>
        <div id="detail-body" hidden>
          <p class="row">
            <code id="d-id"></code><span id="d-status" class="status"></span
            ><button id="d-replay" class="primary">Replay</button>
          </p>
          <h2>Headers</h2>
          <pre id="d-headers"></pre>
          <h2>Body</h2>
          <pre id="d-body"></pre>
          <h2>Attempts</h2>
          <table>
            <thead>
              <tr>
                <th>Attempt</th>
                <th>Outcome</th>
                <th>Started</th>
                <th>Error</th>
              </tr>
            </thead>
            <tbody id="d-attempts"></tbody>
          </table>
          <h2>Steps</h2>
          <p id="d-steps-empty" class="muted">No journaled steps (ctx.step, ctx.client, ctx.transaction).</p>
          <table id="d-steps-table">
            <thead>
              <tr>
                <th>Step</th>
                <th>Outcome</th>
                <th>When</th>
                <th>Attempt</th>
                <th>Error</th>
              </tr>
            </thead>
            <tbody id="d-steps"></tbody>
          </table>
        </div>
      </section>
    </div>`;
  return {
    ...HEADING,
    body,
    data: {
      base: input.base,
      nextCursor: input.first.next_cursor,
      replayMax: REPLAY_MAX_IDS,
      maxRows: INSPECTOR_MAX_ROWS,
    } satisfies InspectorPageData,
    module: `${input.base}${INSPECTOR_ASSETS}inspector.js`,
  };
}

/** What an address with a filter the inspector cannot read gets: the reason, as the JSON side names it, and a way on. */
export function queryErrorPage(input: { base: string; message: string }): Page {
  const unfiltered = `${input.base}/`;
  return {
    ...HEADING,
    body: html`<section>
      <h2>This address asks for a list the inspector cannot show</h2>
      <p id="query-error" class="error">${input.message}</p>
      <p><a href="${unfiltered}">Show every delivery</a>, then choose the filters on the page.</p>
    </section>`,
    module: `${input.base}${INSPECTOR_ASSETS}inspector-error.js`,
  };
}
