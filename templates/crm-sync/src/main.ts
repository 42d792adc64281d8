import { readConfigOrExit } from './app-config.js';
import { startCrmSync } from './crm-sync-app.js';

// `npm start`: the CRM, its webhook receiver and its page, until Ctrl-C.
const app = await startCrmSync(readConfigOrExit());
console.log(`CRM page and API: ${app.url}`);
console.log(
  `Webhook URL:      ${app.webhookUrl}  (register it with POST /v1/webhooks, events contact.* conversation.* message.*)`,
);
console.log(`Deliveries:       ${app.inspectorUrl}  (the inspector: attempts, errors, replay; this machine only)`);
process.once('SIGINT', () => void app.close().then(() => process.exit(0)));
process.once('SIGTERM', () => void app.close().then(() => process.exit(0)));
