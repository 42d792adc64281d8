import { SCOPES } from '../../api/scopes.js';
import { prefixedId } from '../../internal/prefixed-id.js';
import { ApiError, createClient } from '../../client/index.js';
import { emulatorPost, startEmulator, type StartedEmulator } from '../../emulator/index.js';
import { CliError } from '../cli-error.js';
import { InvalidOptionError } from '../../errors.js';
import type { DevManifest } from './project-settings.js';

/** The service an app under `convo-kit dev` talks to, and the settings handed to it (never printed). */
export interface DevService {
  kind: 'emulator' | 'service';
  baseUrl: string;
  /** The app's key: a live key minted for it on the emulator, or the settings' own. */
  apiKey: string;
  /** Empty when the app takes no webhooks (its manifest lists no events). */
  webhookSecret: string;
  /** The URL dev registered for this run (the emulator's, or the public one on a real service); unset when it registered none. */
  registeredUrl?: string;
  /** Registrations of this URL an earlier dev run left behind (it did not stop cleanly), removed before registering. */
  removedLeftBehind?: number;
  /** The custom reply provider dev configured on the emulator: the account, and the signing secret for the app. */
  reply?: { integrationId: string; secret: string };
  /** Set when the emulator runs here: its admin key plays the customer through `/_emulator`. */
  emulator?: { url: string; adminKey: string; adminKeyGenerated: boolean; movedFrom?: number };
  /** Removes what dev registered on a real service, and stops an emulator it started. */
  close(): Promise<void>;
}

export interface EmulatorChoice {
  port: number;
  /** The app's port, which the emulator must not take: the app binds it only after the emulator is up. */
  appPort: number;
  adminKey?: string;
  appName: string;
  webhookUrl: string;
  /** Where the app answers custom reply calls (manifest `replyPath`), if it does. */
  replyUrl?: string;
  manifest: DevManifest;
}

/**
 * Points the sample customer's account (the oldest phone account, where `/_emulator/inbound` writes by
 * default) at the app's reply endpoint: AI on, its own `custom_reply` provider with a fresh signing secret.
 */
async function configureReply(
  url: string,
  adminKey: string,
  replyUrl: string,
): Promise<{ integrationId: string; secret: string }> {
  const call = async (method: string, path: string, body: unknown) => {
    const response = await fetch(`${url}${path}`, {
      method,
      headers: { authorization: `Bearer ${adminKey}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (!response.ok)
      throw new CliError(
        'FAILED',
        `${method} ${path} answered ${response.status} while setting up the reply endpoint.`,
      );
  };
  const client = createClient({ baseUrl: url, apiKey: adminKey });
  const account = (await client.channels.list({ channel: 'phone' })).data.at(-1);
  if (!account) throw new CliError('FAILED', 'The emulator has no phone account to point at the reply endpoint.');
  const secret = prefixedId('rsec');
  await call('PATCH', `/v1/channels/${account.integration_id}`, { ai_enabled: true });
  // Through the admin key: a loopback http URL is the emulator's relaxation, the client keeps the service's rule.
  await call('PUT', `/v1/channels/${account.integration_id}/providers/custom_reply`, {
    enabled: true,
    config: { url: replyUrl, send_conversation_history: true, send_knowledge_context: true },
    secret,
  });
  return { integrationId: account.integration_id, secret };
}

/** Starts the emulator (on `port`, or a free one when that is taken), mints the app a key and registers its webhook. */
export async function startDevEmulator(
  choice: EmulatorChoice,
): Promise<DevService & { emulator: NonNullable<DevService['emulator']> }> {
  const quiet = { write: () => true };
  let emulator: StartedEmulator;
  let movedFrom: number | undefined;
  try {
    emulator = await startEmulator({ port: choice.port, adminKey: choice.adminKey, output: quiet });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
    // Another emulator (the sample CRM's, say) holds the port: a free one serves this app just as well.
    emulator = await startEmulator({ port: 0, adminKey: choice.adminKey, output: quiet });
    movedFrom = choice.port;
  }
  // A free port (port 0) can be the app's, still free until the app starts: the kernel hands out any.
  if (Number(new URL(emulator.url).port) === choice.appPort) {
    const taken = emulator;
    // Started while the first still holds that port, so this one is given another.
    emulator = await startEmulator({ port: 0, adminKey: choice.adminKey, output: quiet });
    await taken.close();
  }
  try {
    const post = emulatorPost(emulator.url, emulator.adminKey);
    const { key } = await post<{ key: string }>('/v1/keys', {
      label: `convo-kit dev: ${choice.appName}`.slice(0, 100),
      scopes: [...SCOPES],
      kind: 'live',
    });
    // Through the admin key: a loopback http URL is the emulator's relaxation, the client keeps the service's rule.
    const { secret } =
      choice.manifest.events.length === 0
        ? { secret: '' }
        : await post<{ secret: string }>('/v1/webhooks', {
            url: choice.webhookUrl,
            events: choice.manifest.events,
            description: `convo-kit dev: ${choice.appName}`.slice(0, 500),
          });
    const reply = choice.replyUrl ? await configureReply(emulator.url, emulator.adminKey, choice.replyUrl) : undefined;
    return {
      kind: 'emulator',
      baseUrl: emulator.url,
      apiKey: key,
      webhookSecret: secret,
      ...(secret && { registeredUrl: choice.webhookUrl }),
      ...(reply && { reply }),
      emulator: {
        url: emulator.url,
        adminKey: emulator.adminKey,
        adminKeyGenerated: choice.adminKey === undefined,
        ...(movedFrom === undefined ? {} : { movedFrom }),
      },
      close: () => emulator.close(),
    };
  } catch (error) {
    await emulator.close();
    throw error;
  }
}

export interface ServiceChoice {
  baseUrl: string;
  apiKey: string;
  /** A secret the settings already hold: nothing is registered. */
  webhookSecret?: string;
  /** The public https URL the service delivers to (a tunnel to the app's port). */
  publicUrl?: string;
  appName: string;
  manifest: DevManifest;
}

function serviceClient(choice: ServiceChoice): ReturnType<typeof createClient> {
  try {
    return createClient({ baseUrl: choice.baseUrl, apiKey: choice.apiKey });
  } catch (cause) {
    if (!(cause instanceof InvalidOptionError)) throw cause;
    throw new CliError('USAGE', `CONVO_KIT_BASE_URL or CONVO_KIT_API_KEY cannot be used: ${cause.message}`, {
      cause,
      hint: 'Write the service URL in full (http://localhost:4010 for a local emulator) and the key as the service issued it (svc_live_…), in .env or the environment; or pass --emulator to run against a local emulator.',
    });
  }
}

/** Uses the service the settings name; registers the webhook for this run only when no secret is set. */
export async function connectDevService(choice: ServiceChoice): Promise<DevService> {
  // Checked first, with no request: a URL without its scheme (`localhost:4010`) is named by its settings.
  const client = serviceClient(choice);
  const registers = !choice.webhookSecret && choice.manifest.events.length > 0;
  if (registers && !choice.publicUrl) {
    throw new CliError(
      'USAGE',
      'CONVO_KIT_WEBHOOK_SECRET is not set, and the service delivers only to a public https URL.',
      {
        hint: 'Pass --public-url https://… (a tunnel to this app), set CONVO_KIT_WEBHOOK_SECRET, or pass --emulator to run against a local emulator.',
      },
    );
  }
  // One read before the app starts: a wrong URL or key is one line here, not a failure behind every page of the app.
  try {
    await client.developer.capabilities({}, { maxRetries: 0 });
  } catch (cause) {
    throw new CliError(
      'FAILED',
      // An answer (401, 403) is about the key; no answer, or not the service's, is about the URL.
      `The service at ${choice.baseUrl} ${cause instanceof ApiError ? "did not take the settings' key" : 'did not answer as the service does'}: ${(cause as Error).message}`,
      {
        cause,
        hint: 'Check CONVO_KIT_BASE_URL and CONVO_KIT_API_KEY (in .env or the environment), or pass --emulator to run against a local emulator.',
      },
    );
  }
  if (!registers) {
    return {
      kind: 'service',
      baseUrl: choice.baseUrl,
      apiKey: choice.apiKey,
      webhookSecret: choice.webhookSecret ?? '',
      close: async () => undefined,
    };
  }
  const registeredUrl = new URL(choice.manifest.webhookPath, choice.publicUrl!).toString();
  const description = `convo-kit dev: ${choice.appName}`.slice(0, 500);
  // A dev run that did not stop cleanly (killed, the machine asleep) left its registration behind: this URL
  // and this description. Kept, it would deliver every event twice and hold a place of the plan's quota.
  const leftBehind: string[] = [];
  for await (const hook of client.webhooks.list({ limit: 100 })) {
    if (hook.url === registeredUrl && hook.description === description) leftBehind.push(hook.id);
  }
  for (const id of leftBehind) await client.webhooks.delete({ id });
  const endpoint = await client.webhooks.create({ url: registeredUrl, events: choice.manifest.events, description });
  return {
    kind: 'service',
    baseUrl: choice.baseUrl,
    apiKey: choice.apiKey,
    webhookSecret: endpoint.secret,
    registeredUrl,
    removedLeftBehind: leftBehind.length,
    // A registration made for this run only: the service stops delivering to the tunnel when dev stops.
    close: async () => {
      await client.webhooks.delete({ id: endpoint.id });
    },
  };
}
