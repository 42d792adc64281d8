import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The tests start the emulator and the app on real ports and wait for real webhook deliveries.
    testTimeout: 30_000,
    hookTimeout: 30_000,
    env: { LOG_LEVEL: 'warn' },
  },
});
