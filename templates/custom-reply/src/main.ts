import { closeOnSignals } from 'convo-kit/reply';
import { settingsOrExit } from 'convo-kit/settings';
import { readConfig } from './app-config.js';
import { FaqError } from './faq.js';
import { startReplyApp } from './reply-app.js';

// `npm start`: answers the service's reply requests from the FAQ, until Ctrl-C (or SIGTERM).
// A missing or bad setting is one line on stderr and exit 1.
const config = settingsOrExit(() => readConfig());
const app = await startReplyApp(config).catch((error: unknown) => {
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
closeOnSignals(() => app.close());
