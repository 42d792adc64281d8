import { defineConfig } from 'vitest/config';

// `npm run test:reliability`: crash, full disk, deleted database, duplicate and replay storms, and
// unauthenticated floods against real receiver processes. One scenario at a time, so each one's
// figures (and the peak memory it reports) are its own.
export default defineConfig({
  test: {
    include: ['test/reliability/**/*.test.ts'],
    testTimeout: 180_000,
    hookTimeout: 60_000,
    // As in vitest.config.ts: an outcome's wait is bounded for a busy machine, not for an idle one.
    expect: { poll: { timeout: 15_000 } },
    fileParallelism: false,
    // Without CONVO_KIT_PG_URL, the PostgreSQL tests try the local default server (test/support/postgres-server.ts).
    // The CLI processes tests start run src/ as JavaScript, built once per run (test/support/sources-as-js.ts).
    globalSetup: ['./test/support/postgres-server.ts', './test/support/sources-as-js.ts'],
    reporters: ['default'],
  },
});
