import { readConfigOrExit } from './app-config.js';
import { startCrmSync } from './crm-sync-app.js';

// `npm start`: the CRM, its webhook receiver and its page, until Ctrl-C.
const config = readConfigOrExit();
const app = await startCrmSync(config);
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
process.once('SIGINT', () => void app.close().then(() => process.exit(0)));
process.once('SIGTERM', () => void app.close().then(() => process.exit(0)));
