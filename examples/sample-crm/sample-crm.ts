import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { type Client, createClient } from 'convo-kit/client';
import { createEmulator, emulatorPost } from 'convo-kit/emulator';
import { CRM_EVENTS, startCrmSync, type CrmSyncApp } from '../../templates/crm-sync/src/index.js';
import {
  AssignmentBook,
  loadOpenTickets,
  loadRoutingConfig,
  registerTicketRouting,
  ROUTING_EVENTS,
  type RouteOutcome,
  type RoutingContext,
  startSlaWatch,
} from '../../templates/ticket-routing/src/index.js';
// The templates' own test helper for talking to the emulator, reused rather than copied.
import { say, terminalLogger } from './live-log.js';
import { SAMPLE_PANELS, sampleRoutes } from './sample-routes.js';
import { type Control } from './control.js';
import { outboundRoutes } from './outbound-routes.js';
import { setUpOutbound } from './outbound-setup.js';

export interface SampleOptions {
  /** Port of the CRM page, API and webhook (0: any free port). @default 3000 */
  port: number;
  /** Port of the emulator (0: any free port). @default 4010 */
  emulatorPort: number;
  /** Where the CRM and delivery databases go; emptied at start, since the emulator starts fresh. */
  dataDir: string;
  /** The routing rules file (the ticket-routing template's by default). */
  rulesPath: string;
  /**
   * A second, local-only secret the receiver also accepts, so `convo-kit trigger` can sign test events
   * for the running sample (the service's own secret is never shown).
   */
  triggerSecret: string;
}

export interface Sample {
  crm: CrmSyncApp;
  /** A client of the emulator with its admin key (the shop's own calls: events, campaigns, tags). */
  client: Client;
  emulatorUrl: string;
  adminKey: string;
  deliveriesDbPath: string;
  control: Control;
  settle(): Promise<void>;
  close(): Promise<void>;
}

const SETTLE_ROUNDS = 4; // handlers' own API writes raise events, delivered in the next round

/** The crm-sync starter's CRM_AUTO_REPLY, on here: each customer who writes in first hears it once. */
export const AUTO_REPLY = 'Thanks for writing in! An agent will be with you shortly.';

/**
 * One crash-and-recover, on purpose (README, "Effects, exactly once"). The first customer's
 * conversation.created fails right after the CRM's handler sent the auto-reply, as a process killed there
 * would; the receiver retries it, the send answers from the step journal, and this prints how many
 * auto-replies the conversation holds: one.
 */
function crashOnceAfterTheAutoReply(
  client: Client,
): (event: { data: { id: string; origin: string }; attempt: number; deliveryId: string }) => Promise<void> {
  let crashedOn: string | null = null;
  return async ({ data, attempt, deliveryId }) => {
    if (data.origin !== 'inbound') return;
    if (crashedOn === null) {
      crashedOn = data.id;
      say(
        'warn',
        'crash',
        `${deliveryId}: failing on purpose after the auto-reply was sent (the retry must not send it again)`,
      );
      throw new Error('Simulated crash between the auto-reply and the end of the handler');
    }
    if (data.id !== crashedOn || attempt === 1) return;
    let replies = 0;
    for await (const message of client.conversations.listMessages({ id: data.id }))
      if (message.direction === 'sent' && message.content === AUTO_REPLY) replies += 1;
    say(
      'info',
      'recovered',
      `${deliveryId} attempt ${attempt}: the auto-reply came from the step journal, not sent again (${replies} auto-reply in ${data.id})`,
    );
  };
}

/**
 * The whole loop in one process: the emulator (the service), the webhook registered with it, and one
 * receiver running both templates' handlers (CRM sync and ticket routing), with the page on top.
 */
export async function startSample(options: SampleOptions): Promise<Sample> {
  rmSync(options.dataDir, { recursive: true, force: true });
  mkdirSync(options.dataDir, { recursive: true });
  const emulator = await createEmulator({});
  const emulatorServer = await emulator.listen(options.emulatorPort);
  const client = createClient({ apiKey: emulator.adminKey, baseUrl: emulatorServer.url });
  const post = emulatorPost(emulatorServer.url, emulator.adminKey);
  const control: Control = <T>(path: string, body: unknown) => post<T>(`/_emulator/${path}`, body);
  const outbound = await setUpOutbound(client, control);

  const outcomes = new Map<string, RouteOutcome>();
  const rules = loadRoutingConfig(options.rulesPath);
  const routing: RoutingContext = {
    config: rules,
    book: new AssignmentBook(rules),
    client,
    onRouted: (outcome) => {
      outcomes.set(outcome.ticketId, outcome);
      if (outcome.result === 'routed')
        say(
          'ticket',
          'routed',
          `${outcome.ticketId} -> ${outcome.assignee} (${outcome.priority}) by rule "${outcome.rule}"`,
        );
      else say('ticket', outcome.result, `${outcome.ticketId}: ${outcome.reason}`);
    },
  };

  await loadOpenTickets(routing);
  const stopSlaWatch = startSlaWatch(
    routing,
    (e) => say('ticket', 'escalated', `${e.ticketId} ${e.from} -> ${e.to} (SLA near)`),
    (error) => say('warn', 'sla', String(error)),
  );

  let secret = '';
  const deliveriesDbPath = join(options.dataDir, 'deliveries.db');
  const crm = await startCrmSync(
    {
      baseUrl: emulatorServer.url,
      apiKey: emulator.adminKey,
      webhookSecret: 'registered below',
      port: options.port,
      crmDbPath: join(options.dataDir, 'crm.db'),
      deliveriesDbPath,
      windowClosedTemplate: outbound.windowClosedTemplate,
      autoReply: AUTO_REPLY,
    },
    {
      secrets: () => [secret, options.triggerSecret],
      // The terminal shows one line per event; the receiver's own log keeps to warnings unless LOG_LEVEL says otherwise.
      receiver: { logger: terminalLogger() },
      title: 'convo-kit sample CRM',
      panels: SAMPLE_PANELS,
      // Without the admin key: the console asks for it and keeps it in that tab (the terminal prints the link with it).
      links: [{ label: 'Emulator console', href: `${emulatorServer.url}/_emulator/console` }],
      register: (receiver) => {
        registerTicketRouting(receiver, routing);
        // After the CRM's own handlers (a delivery's handlers run in the order they were registered).
        receiver.on('conversation.created', crashOnceAfterTheAutoReply(client));
        receiver.on('*', ({ event, deliveryId, attempt }) =>
          say('event', 'webhook', `${event.padEnd(24)} ${deliveryId}${attempt > 1 ? ` (attempt ${attempt})` : ''}`),
        );
        receiver.onError((error, info) => say('warn', 'dead', `${info.event} ${info.deliveryId}: ${error.message}`));
      },
      routes: (receiver, crmCtx) => [sampleRoutes(receiver, crmCtx, routing, outcomes), outboundRoutes(client, crmCtx)],
    },
  );
  const events = [...new Set([...CRM_EVENTS, ...ROUTING_EVENTS])];
  ({ secret } = await post<{ secret: string }>('/v1/webhooks', {
    url: crm.webhookUrl,
    events,
    description: 'convo-kit sample CRM',
  }));
  say('info', 'webhook', `registered ${crm.webhookUrl} for ${events.length} events`);

  return {
    crm,
    emulatorUrl: emulatorServer.url,
    adminKey: emulator.adminKey,
    deliveriesDbPath,
    client,
    control,
    async settle() {
      for (let round = 0; round < SETTLE_ROUNDS; round += 1) {
        await emulator.dispatcher.idle();
        await crm.receiver.idle();
      }
    },
    async close() {
      stopSlaWatch();
      await crm.close();
      await emulatorServer.close();
      await emulator.close();
    },
  };
}
