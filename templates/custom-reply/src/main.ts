import { MissingSettingsError, readConfig, type AppConfig } from './app-config.js';
import { FaqError } from './faq.js';
import { startReplyApp } from './reply-app.js';

// `npm start`: answers the service's reply requests from the FAQ, until Ctrl-C.
const app = await startReplyApp(config()).catch((error: unknown) => {
  // A bad FAQ is the user's to fix, and its message names the entry and field: print it alone.
  if (!(error instanceof FaqError)) throw error;
  console.error(error.message);
  process.exit(1);
});
console.log(`Reply endpoint: ${app.replyUrl}  (${app.faq.entries.length} FAQ entries)`);
// Under `npm run dev`, convo-kit dev pointed an account's provider here itself and names it; run alone, that is yours to do.
const accountSetByDev = process.env.CONVO_KIT_DEV_REPLY_INTEGRATION;
console.log(
  accountSetByDev
    ? `The custom_reply provider of ${accountSetByDev} points here (set up by convo-kit dev for this run, AI on)`
    : `Point a custom_reply provider at it: { "enabled": true, "config": { "url": "${app.replyUrl}" }, "secret": <REPLY_SECRET> }`,
);
process.once('SIGINT', () => void app.close().then(() => process.exit(0)));
process.once('SIGTERM', () => void app.close().then(() => process.exit(0)));

/** The settings, or one line naming what is missing and the command that fixes it (no stack trace). */
function config(): AppConfig {
  try {
    return readConfig();
  } catch (error) {
    if (!(error instanceof MissingSettingsError)) throw error;
    console.error(error.message);
    process.exit(1);
  }
}
