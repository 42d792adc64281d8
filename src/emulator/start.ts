import { createEmulator, type Emulator, type EmulatorOptions } from './create-emulator.js';

export interface StartOptions extends EmulatorOptions {
  /** @default 4010 */
  port?: number;
  /** @default '127.0.0.1' */
  host?: string;
  /** Where the start-up lines go. @default process.stdout */
  output?: { write(text: string): unknown };
}

export interface StartedEmulator extends Emulator {
  url: string;
}

/**
 * Starts the emulator on a port and prints its base URL and the keys it generated (docs/emulator.md): printed
 * once to the console that started it, never to the logger. A key it was given is not printed (it would end
 * up in CI logs; whoever passed it knows it).
 */
export async function startEmulator(options: StartOptions = {}): Promise<StartedEmulator> {
  const emulator = await createEmulator(options);
  try {
    const { url } = await emulator.listen(options.port ?? 4010, options.host);
    const out = options.output ?? process.stdout;
    out.write(
      [
        `convo-kit emulator listening on ${url} (plan ${emulator.ctx.plan}, ${options.dbPath && options.dbPath !== ':memory:' ? `db ${options.dbPath}` : 'in-memory db'})`,
        `  base URL:  ${url}/v1`,
        `  console:   ${url}/_emulator/console`,
        `  admin key: ${options.adminKey === undefined ? emulator.adminKey : '(the one given)'}`,
        `  test key:  ${options.testKey === undefined ? emulator.testKey : '(the one given)'}`,
        '',
      ].join('\n'),
    );
    return { ...emulator, url };
  } catch (error) {
    await emulator.close();
    throw error;
  }
}
