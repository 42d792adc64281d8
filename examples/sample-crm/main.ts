import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { closeOnSignals } from 'convo-kit/receiver';
import { portSetting, readSettings, settingsOrExit } from 'convo-kit/settings';
import { colors as c, heading, say } from './live-log.js';
import { startSample } from './sample-crm.js';
import { playOutbound } from './outbound-traffic.js';
import { playTraffic } from './traffic.js';

// `npm start`: the sample CRM integration, end to end against the in-process emulator, until Ctrl-C.
const root = fileURLToPath(new URL('../../', import.meta.url));

// A bad value is one line naming it (`PORT: must be a whole number from 0 to 65535, got "abc"`), not a stack
// trace. Only process.env: a .env a developer keeps in the checkout is not the sample's.
const ports = settingsOrExit(() =>
  readSettings(
    {
      port: portSetting(3000),
      emulatorPort: portSetting(4010, 'EMULATOR_PORT'),
    },
    process.env,
  ),
);

// A local test secret the sample's receiver accepts besides the service's: safe to show, it signs only your own test events.
const triggerSecret = process.env.SAMPLE_TRIGGER_SECRET ?? `whsec_${randomBytes(24).toString('base64url')}`;
const sample = await startSample({
  port: ports.port,
  emulatorPort: ports.emulatorPort,
  dataDir: process.env.SAMPLE_CRM_DATA ?? join(root, '.tmp', 'sample-crm'),
  rulesPath: join(root, 'templates', 'ticket-routing', 'routing-rules.json'),
  triggerSecret,
}).catch((error: unknown) => {
  // The usual first-run failure: another sample (or app) already holds a port. Say how to move it.
  if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
  const { address, port: taken } = error as NodeJS.ErrnoException & { address?: string; port?: number };
  console.error(
    `Port ${taken} on ${address} is in use (another \`npm start\`?). Stop it, or pick other ports: PORT=3001 EMULATOR_PORT=4011 npm start (0 picks free ones).`,
  );
  process.exit(1);
});

// Once, whichever of npm, tsx and node passes the Ctrl-C on; exit 1 if the close threw.
closeOnSignals(async () => {
  say('info', 'stopping', 'closing the receiver, the CRM and the emulator');
  await sample.close();
  say('info', 'stopped', 'everything closed cleanly');
});

heading('convo-kit sample CRM');
console.log(`  CRM page:        ${c.bold(sample.crm.url)}`);
// The origin alone answers 404 (the service has no route there): print the controls index, which a browser can open.
console.log(
  `  Emulator:        ${sample.emulatorUrl}/_emulator  (its controls; the API is ${sample.emulatorUrl}/v1, admin key ${sample.adminKey})`,
);
console.log(`  Webhook:         ${sample.crm.webhookUrl}`);
console.log(`  Deliveries:      ${sample.crm.inspectorUrl}  (the delivery inspector: attempts, errors, replay)`);
// The key rides in the fragment, which the browser keeps to itself: the console stores it in that tab only.
console.log(`  Console:         ${sample.emulatorUrl}/_emulator/console#key=${sample.adminKey}  (play the customer)`);
heading('Playing customer traffic through the emulator');
const customers = await playTraffic(sample.control, sample.crm.ctx, sample.settle);
await playOutbound(sample.client, sample.control, sample.crm.ctx, sample.settle, customers);

const count = (table: string) =>
  (sample.crm.ctx.db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
const deliveries = await sample.crm.receiver.store.list({ limit: 500 });
heading('Traffic played');
console.log(
  `  ${deliveries.data.length} webhook deliveries, ${count('contacts')} contacts, ${count('conversations')} conversations, ${count('activity')} timeline entries in the CRM`,
);
console.log(
  `  Look:   ${sample.crm.url}  (JSON: /api/contacts /api/activity /api/tickets /api/journeys /api/campaigns /api/deliveries)`,
);
// In a checkout the CLI runs from source (npx tsx); an installed package has `npx convo-kit` and `npx create-starter`.
console.log('  Try (in another terminal):');
console.log(`    npx tsx src/cli/convo-kit.ts deliveries list --db ${sample.deliveriesDbPath}`);
console.log(
  `    npx tsx src/cli/convo-kit.ts replay --db ${sample.deliveriesDbPath} --status all --event 'contact.*' --new-ids --to ${sample.crm.webhookUrl} --secret ${triggerSecret}`,
);
console.log(
  `    npx tsx src/cli/convo-kit.ts trigger contact.updated --to ${sample.crm.webhookUrl} --secret ${triggerSecret}`,
);
console.log('    npx tsx src/cli/create-starter/index.ts ../my-crm --template crm-sync');
console.log(c.dim('  Running until Ctrl-C.'));
