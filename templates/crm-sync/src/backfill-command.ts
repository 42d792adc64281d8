import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { createClient } from 'convo-kit/client';
import { settingsOrExit } from 'convo-kit/settings';
import { readBackfillConfig } from './app-config.js';
import { backfill } from './backfill.js';
import { openCrmDatabase } from './crm-database.js';

// `npm run backfill`: builds (or rebuilds) the CRM from every contact and conversation of the service.
// A missing or bad setting is one line on stderr and exit 1.
const config = settingsOrExit(() => readBackfillConfig());
mkdirSync(dirname(config.crmDbPath), { recursive: true });
const db = openCrmDatabase(config.crmDbPath);
try {
  const result = await backfill({ db, client: createClient({ apiKey: config.apiKey, baseUrl: config.baseUrl }) });
  console.log(
    `Backfilled ${result.contacts} contacts and ${result.conversations} conversations into ${config.crmDbPath}`,
  );
} finally {
  db.close();
}
