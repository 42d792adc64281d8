import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The tests start the emulator and the endpoint on real ports and wait for the emulator's real calls.
    testTimeout: 30_000,
    hookTimeout: 30_000,
    env: { LOG_LEVEL: 'warn' },
  },
});
