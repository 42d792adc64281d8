import { defineConfig } from 'vitest/config';

export default defineConfig({
  // The tests start the emulator and the app on real ports and wait for real webhook deliveries.
  test: { include: ['test/**/*.test.ts'], testTimeout: 30_000, hookTimeout: 30_000 },
});
