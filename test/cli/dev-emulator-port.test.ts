import { createServer } from 'node:net';
import { expect, it } from 'vitest';
import { startDevEmulator } from '../../src/cli/dev/dev-service.js';
import { DevManifest } from '../../src/cli/dev/project-settings.js';

// `convo-kit dev` starts the emulator before the app binds its port: a free port then may be the app's.

const freePort = () =>
  new Promise<number>((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

it("never keeps the emulator on the app's port, which the app binds only after it", async () => {
  const appPort = await freePort();
  // The emulator is asked for that very port, as the kernel may hand it out for port 0.
  const service = await startDevEmulator({
    port: appPort,
    appPort,
    appName: 'port-test',
    webhookUrl: `http://127.0.0.1:${appPort}/webhooks`,
    manifest: DevManifest.parse({}),
  });
  try {
    const emulatorPort = Number(new URL(service.emulator.url).port);
    expect(emulatorPort).not.toBe(appPort);
    // The app can bind its port, and the emulator answers on its own.
    const app = createServer();
    await new Promise<void>((resolve, reject) => app.once('error', reject).listen(appPort, '127.0.0.1', resolve));
    await new Promise((resolve) => app.close(resolve));
    expect((await fetch(`${service.emulator.url}/v1/status`)).status).toBeLessThan(500);
  } finally {
    await service.close();
  }
});
