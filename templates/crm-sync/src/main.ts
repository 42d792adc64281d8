import { readConfig, type AppConfig } from './app-config.js';
import { startCrmSync } from './crm-sync-app.js';

// `npm start`: the CRM, its webhook receiver and its page, until Ctrl-C.
const app = await startCrmSync(config());
console.log(`CRM page and API: ${app.url}`);
console.log(
  `Webhook URL:      ${app.webhookUrl}  (register it with POST /v1/webhooks, events contact.* conversation.* message.*)`,
);
console.log(`Deliveries:       ${app.inspectorUrl}  (the inspector: attempts, errors, replay; this machine only)`);
process.once('SIGINT', () => void app.close().then(() => process.exit(0)));
process.once('SIGTERM', () => void app.close().then(() => process.exit(0)));

/** The settings, or one line naming what is missing or malformed (every error readConfig throws is about a setting). */
function config(): AppConfig {
  try {
    return readConfig();
  } catch (error) {
    if (!(error instanceof Error)) throw error;
    console.error(error.message);
    process.exit(1);
  }
}
