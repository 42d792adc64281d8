import { resolve } from 'node:path';
import { matchesAny } from '../../events/index.js';
import type { DevVariable } from '../../settings/index.js';
import { CliError } from '../cli-error.js';
import { err, out } from '../output.js';
import { interrupted } from '../shutdown.js';
import { accepts, startApp } from './app-process.js';
import { connectDevService, startDevEmulator, type DevService } from './dev-service.js';
import { appPort, pickDefined, readProjectSettings } from './project-settings.js';

export interface DevFlags {
  dir: string;
  emulator?: boolean;
  emulatorPort: number;
  adminKey?: string;
  publicUrl?: string;
  watch: boolean;
  sample: boolean;
}

/** The customer `dev` writes in as once the app is up, so the first synced message needs no typing. */
const SAMPLE_INBOUND = {
  channel: 'phone',
  from: { handle: '+14155550142', name: 'Dana Example' },
  content: 'Hi! Is my order on its way?',
} as const;
/** What the suggested curl asks a reply app: a question an FAQ such as the custom-reply starter's answers. */
const REPLY_QUESTION = 'Are you open on Saturday?';

/** Where the service delivers: what dev registered, or (with the settings' own secret) the app's local path. */
function webhookLine(events: readonly string[], localUrl: string, service: DevService): string {
  if (events.length === 0) return '  webhook:   none (the app subscribes to no events)';
  const subscribed = events.join(' ');
  if (!service.registeredUrl)
    return `  webhook:   ${localUrl}  (${subscribed}; the endpoint of CONVO_KIT_WEBHOOK_SECRET, registered by you)`;
  const via = service.registeredUrl === localUrl ? '' : `, registered for this run, reaching ${localUrl}`;
  const removed = service.removedLeftBehind
    ? `\n             (removed ${service.removedLeftBehind} registration${service.removedLeftBehind === 1 ? '' : 's'} of it an earlier dev run left behind)`
    : '';
  return `  webhook:   ${service.registeredUrl}  (${subscribed}${via}; the secret is in the app's environment)${removed}`;
}

/**
 * `convo-kit dev`: the emulator (or the service the settings name), the app's webhook registered, the app
 * in watch mode with its key and secret in its environment, and what to try next. Runs until Ctrl-C.
 */
export async function runDev(flags: DevFlags): Promise<void> {
  // Listening from the start: a Ctrl-C while the emulator or the app starts still stops both (the app runs
  // in a process group of its own, which a signal's default action would leave running).
  const stopRequested = interrupted();
  const settings = readProjectSettings(resolve(flags.dir));
  const port = appPort(settings);
  if (await accepts(port)) {
    throw new CliError('FAILED', `Port ${port} is already in use (another app, or the sample CRM?).`, {
      hint: 'Stop it, or set PORT to a free port in .env (the webhook is registered with it).',
    });
  }
  const webhookUrl = `http://127.0.0.1:${port}${settings.manifest.webhookPath}`;
  const replyUrl = settings.manifest.replyPath && `http://127.0.0.1:${port}${settings.manifest.replyPath}`;
  const { CONVO_KIT_BASE_URL: baseUrl, CONVO_KIT_API_KEY: apiKey } = settings.env;
  const useService = !flags.emulator && Boolean(baseUrl && apiKey);
  const service: DevService = useService
    ? await connectDevService({
        baseUrl: baseUrl!,
        apiKey: apiKey!,
        webhookSecret: settings.env.CONVO_KIT_WEBHOOK_SECRET || undefined,
        publicUrl: flags.publicUrl,
        appName: settings.name,
        manifest: settings.manifest,
      })
    : await startDevEmulator({
        port: flags.emulatorPort,
        appPort: port,
        adminKey: flags.adminKey,
        appName: settings.name,
        webhookUrl,
        replyUrl,
        manifest: settings.manifest,
      });
  const app = startApp({
    dir: settings.dir,
    entry: settings.manifest.entry,
    port,
    watch: flags.watch,
    env: {
      // An unset one (no reply endpoint) is left out of the app's environment, not set to "undefined".
      ...pickDefined({
        CONVO_KIT_BASE_URL: service.baseUrl,
        CONVO_KIT_API_KEY: service.apiKey,
        CONVO_KIT_WEBHOOK_SECRET: service.webhookSecret,
        REPLY_SECRET: service.reply?.secret,
      } satisfies Record<DevVariable, string | undefined>),
      // What dev set up for the app, so its own banner says so instead of asking the user to do it
      // (README: Starters). Empty when dev did not: a value left in the shell must not claim otherwise.
      CONVO_KIT_DEV_WEBHOOK_URL: service.registeredUrl ?? '',
      CONVO_KIT_DEV_REPLY_INTEGRATION: service.reply?.integrationId ?? '',
      PORT: String(port),
    },
  });
  const stop = async () => {
    await app.stop();
    await service.close();
  };
  try {
    await app.ready();
    const lines = [
      '',
      out.c.bold(`convo-kit dev: ${settings.name}`),
      `  app:       http://127.0.0.1:${port}  (${flags.watch ? 'restarts when you save a file' : 'no watch'})`,
      webhookLine(settings.manifest.events, webhookUrl, service),
    ];
    if (service.reply)
      lines.push(
        `  reply:     ${replyUrl}  (custom_reply provider of ${service.reply.integrationId}, AI on; the secret is in the app's environment)`,
      );
    if (service.emulator) {
      const { url, adminKey, adminKeyGenerated, movedFrom } = service.emulator;
      const shownKey = adminKeyGenerated ? adminKey : '$CONVO_KIT_EMULATOR_ADMIN_KEY';
      lines.push(
        `  emulator:  ${url}${movedFrom ? `  (port ${movedFrom} was taken)` : ''}`,
        `  admin key: ${adminKeyGenerated ? adminKey : '(the one you gave)'}  (plays the customer through /_emulator)`,
        `  console:   ${url}/_emulator/console${adminKeyGenerated ? `#key=${adminKey}` : ''}`,
      );
      let sampleConversation: string | undefined;
      if (flags.sample) {
        const response = await fetch(`${url}/_emulator/inbound`, {
          method: 'POST',
          headers: { authorization: `Bearer ${adminKey}`, 'content-type': 'application/json' },
          body: JSON.stringify(SAMPLE_INBOUND),
        });
        if (!response.ok) throw new CliError('FAILED', `The sample inbound message was refused (${response.status}).`);
        sampleConversation = ((await response.json()) as { conversation?: { id?: string } }).conversation?.id;
        lines.push(`  sent:      "${SAMPLE_INBOUND.content}" from ${SAMPLE_INBOUND.from.name} (phone), as a customer`);
      }
      const curl = (control: string) =>
        `  curl -s ${url}/_emulator/${control} -H "Authorization: Bearer ${shownKey}" -H 'content-type: application/json' \\`;
      const read = (path: string) => `  curl -s "${url}${path}" -H "Authorization: Bearer ${shownKey}"`;
      lines.push('', 'Try next:');
      // Each suggestion shows the app's main path, and where to read its outcome.
      if (service.reply && sampleConversation) {
        lines.push(
          `  ask as ${SAMPLE_INBOUND.from.name}; the app answers through the service's AI reply call:`,
          curl('inbound'),
          `    -d '{"channel":"${SAMPLE_INBOUND.channel}","from":${JSON.stringify(SAMPLE_INBOUND.from)},"content":"${REPLY_QUESTION}"}'`,
          '  then read the answer (the last message, source ai):',
          read(`/v1/conversations/${sampleConversation}/messages`),
        );
      } else {
        lines.push(
          curl('inbound'),
          `    -d '{"channel":"phone","from":{"handle":"+14155550199","name":"Sam"},"content":"I want a refund"}'`,
        );
      }
      // A customer writing in opens no ticket: an app that takes ticket events sees one only at a handoff.
      if (sampleConversation && matchesAny(settings.manifest.events, 'ticket.created'))
        lines.push(
          `  hand ${SAMPLE_INBOUND.from.name}'s conversation to a person (a ticket, ticket.created):`,
          curl('handoff'),
          `    -d '{"conversation_id":"${sampleConversation}","priority":"high"}'`,
          '  then see whom the app assigned it to:',
          read(`/v1/tickets?conversation_id=${sampleConversation}`),
        );
    } else {
      lines.push(
        `  service:   ${service.baseUrl}`,
        '',
        'Try next: write to one of your channels; each delivery reaches the app.',
      );
    }
    lines.push('  edit a file under src/: the app restarts; Ctrl-C stops everything', '');
    err.line(lines.join('\n'));
  } catch (error) {
    await stop();
    throw error;
  }
  const appExited = new Promise<void>((done) => app.child.once('exit', () => done()));
  await Promise.race([stopRequested, appExited]);
  await stop();
  err.line('dev stopped');
}
