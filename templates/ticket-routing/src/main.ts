import { readConfig } from './app-config.js';
import { startTicketRouting } from './ticket-routing-app.js';

// `npm start`: routes tickets from webhook events and watches SLAs, until Ctrl-C.
const app = await startTicketRouting(readConfig());
console.log(`Routing state:  ${app.url}/api/routing`);
console.log(
  `Webhook URL:    ${app.webhookUrl}  (register it with POST /v1/webhooks, events ticket.* conversation.assigned)`,
);
process.once('SIGINT', () => void app.close().then(() => process.exit(0)));
process.once('SIGTERM', () => void app.close().then(() => process.exit(0)));
