import { KNOWLEDGE_FILE_EXTENSIONS, KnowledgeType } from '../../api/schemas/knowledge-entry.js';
import { html } from '../html.js';

/** The inputs the automations' Trigger button reads: the conversation it runs on and its variables. */
export const AUTOMATION_RUN_FORM = html`<form id="automation-run" class="row">
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
</form>`;

/** The inputs the journeys' Enroll button reads, and the business event the shop fires (the script's `enroll` handler). */
export const ENROLL_FORM = html`<form id="enroll" class="row">
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
</form>`;

/** A knowledge file for the group the panel was opened for, sent as multipart (uploadKnowledge, src/api/endpoints/groups.ts). */
export const KNOWLEDGE_UPLOAD_FORM = html`<form id="knowledge-upload" class="row">
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
</form>`;
