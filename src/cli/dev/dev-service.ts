import { SCOPES } from '../../api/scopes.js';
import { createClient } from '../../client/index.js';
import { emulatorPost, startEmulator, type StartedEmulator } from '../../emulator/index.js';
import { CliError } from '../cli-error.js';
import type { DevManifest } from './project-settings.js';

/** The service an app under `convo-kit dev` talks to, and the settings handed to it (never printed). */
export interface DevService {
  kind: 'emulator' | 'service';
  baseUrl: string;
  /** The app's key: a live key minted for it on the emulator, or the settings' own. */
  apiKey: string;
  webhookSecret: string;
  /** Set when the emulator runs here: its admin key plays the customer through `/_emulator`. */
  emulator?: { url: string; adminKey: string; adminKeyGenerated: boolean; movedFrom?: number };
  /** Removes what dev registered on a real service, and stops an emulator it started. */
  close(): Promise<void>;
}

export interface EmulatorChoice {
  port: number;
  adminKey?: string;
  appName: string;
  webhookUrl: string;
  manifest: DevManifest;
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
  try {
    const post = emulatorPost(emulator.url, emulator.adminKey);
    const { key } = await post<{ key: string }>('/v1/keys', {
      label: `convo-kit dev: ${choice.appName}`.slice(0, 100),
      scopes: [...SCOPES],
      kind: 'live',
    });
    // Through the admin key: a loopback http URL is the emulator's relaxation, the client keeps the service's rule.
    const { secret } = await post<{ secret: string }>('/v1/webhooks', {
      url: choice.webhookUrl,
      events: choice.manifest.events,
      description: `convo-kit dev: ${choice.appName}`.slice(0, 500),
    });
    return {
      kind: 'emulator',
      baseUrl: emulator.url,
      apiKey: key,
      webhookSecret: secret,
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

/** Uses the service the settings name; registers the webhook for this run only when no secret is set. */
export async function connectDevService(choice: ServiceChoice): Promise<DevService> {
  if (choice.webhookSecret) {
    return {
      kind: 'service',
      baseUrl: choice.baseUrl,
      apiKey: choice.apiKey,
      webhookSecret: choice.webhookSecret,
      close: async () => undefined,
    };
  }
  if (!choice.publicUrl) {
    throw new CliError(
      'USAGE',
      'CONVO_KIT_WEBHOOK_SECRET is not set, and the service delivers only to a public https URL.',
      {
        hint: 'Pass --public-url https://… (a tunnel to this app), set CONVO_KIT_WEBHOOK_SECRET, or pass --emulator to run against a local emulator.',
      },
    );
  }
  const client = createClient({ baseUrl: choice.baseUrl, apiKey: choice.apiKey });
  const endpoint = await client.webhooks.create({
    url: new URL(choice.manifest.webhookPath, choice.publicUrl).toString(),
    events: choice.manifest.events,
    description: `convo-kit dev: ${choice.appName}`.slice(0, 500),
  });
  return {
    kind: 'service',
    baseUrl: choice.baseUrl,
    apiKey: choice.apiKey,
    webhookSecret: endpoint.secret,
    // A registration made for this run only: the service stops delivering to the tunnel when dev stops.
    close: async () => {
      await client.webhooks.delete({ id: endpoint.id });
    },
  };
}
