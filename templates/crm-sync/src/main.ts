import { closeOnSignals } from 'convo-kit/receiver';
import { settingsOrExit } from 'convo-kit/settings';
import { startTelemetry } from 'convo-kit/telemetry';
import { readConfig } from './app-config.js';
import { startCrmSync } from './crm-sync-app.js';

// `npm start`: the CRM, its webhook receiver and its page, until Ctrl-C (or SIGTERM: a graceful close).
// A missing or bad setting (the app's own, or the OpenTelemetry SDK's) is one line on stderr and exit 1.
const config = settingsOrExit(() => readConfig());
// Before the app creates its client and receiver, which take their meter when made (README, "In production").
const telemetry = await settingsOrExit(() => startTelemetry('crm-sync'));
const app = await startCrmSync(config, { metrics: telemetry.metrics });
closeOnSignals(async () => {
  await app.close();
  await telemetry.shutdown();
});
console.log(`CRM page and API: ${app.url}`);
// Under `npm run dev`, convo-kit dev registered the webhook itself and names the URL here; run alone, that is yours to do.
const registeredByDev = process.env.CONVO_KIT_DEV_WEBHOOK_URL;
const registration = registeredByDev
  ? `registered by convo-kit dev for this run${registeredByDev === app.webhookUrl ? '' : ` as ${registeredByDev}`}`
  : 'register it with POST /v1/webhooks';
console.log(`Webhook URL:      ${app.webhookUrl}  (${registration}, events contact.* conversation.* message.*)`);
// The token itself is never printed: logs get copied around.
const inspectorAccess = config.inspectorToken
  ? 'open with INSPECTOR_TOKEN as ?token= or a Bearer token'
  : 'this machine only';
console.log(`Deliveries:       ${app.inspectorUrl}  (the inspector: attempts, errors, replay; ${inspectorAccess})`);
console.log(
  `Health:           ${app.url}/healthz, ${app.url}/readyz${telemetry.metrics ? `; metrics ${app.url}/metrics` : ''}`,
);
