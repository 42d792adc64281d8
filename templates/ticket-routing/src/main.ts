import { closeOnSignals } from 'convo-kit/receiver';
import { settingsOrExit } from 'convo-kit/settings';
import { startTelemetry } from 'convo-kit/telemetry';
import { readConfig } from './app-config.js';
import { RoutingConfigError } from './routing-config.js';
import { startTicketRouting } from './ticket-routing-app.js';

// `npm start`: routes tickets from webhook events and watches SLAs, until Ctrl-C (or SIGTERM: a graceful close).
// A missing or bad setting (the app's own, or the OpenTelemetry SDK's) is one line on stderr and exit 1.
const settings = settingsOrExit(() => readConfig());
// Before the app creates its client and receiver, which take their meter when made (README, "In production").
const telemetry = await settingsOrExit(() => startTelemetry('ticket-routing'));
const app = await startTicketRouting(settings, { metrics: telemetry.metrics }).catch((error: unknown) => {
  // A bad rule is the user's to fix, and its message names the rule and field: print it alone.
  if (!(error instanceof RoutingConfigError)) throw error;
  console.error(error.message);
  process.exit(1);
});
console.log(`Routing state:  ${app.url}/api/routing`);
// Under `npm run dev`, convo-kit dev registered the webhook itself and names the URL here; run alone, that is yours to do.
const registeredByDev = process.env.CONVO_KIT_DEV_WEBHOOK_URL;
const registration = registeredByDev
  ? `registered by convo-kit dev for this run${registeredByDev === app.webhookUrl ? '' : ` as ${registeredByDev}`}`
  : 'register it with POST /v1/webhooks';
console.log(`Webhook URL:    ${app.webhookUrl}  (${registration}, events ticket.* conversation.assigned)`);
// The token itself is never printed: logs get copied around.
const inspectorAccess = settings.inspectorToken
  ? 'open with INSPECTOR_TOKEN as ?token= or a Bearer token'
  : 'this machine only';
console.log(`Deliveries:     ${app.inspectorUrl}  (the inspector: attempts, errors, replay; ${inspectorAccess})`);
console.log(
  `Health:         ${app.url}/healthz, ${app.url}/readyz${telemetry.metrics ? `; metrics ${app.url}/metrics` : ''}`,
);
closeOnSignals(async () => {
  await app.close();
  await telemetry.shutdown();
});
