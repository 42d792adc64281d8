import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // Minutes of crashes and floods against real processes: `npm run test:reliability`.
    // The packages installed from a local registry (minutes of installs): `npm run test:registry`.
    exclude: [...configDefaults.exclude, 'test/reliability/**', 'test/registry/**'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // expect.poll waits for an outcome; its own default bound (1 s) is shorter than a page's redraw or a
    // worker's turn can take on a busy 2-core machine. A longer bound costs nothing when the outcome comes.
    expect: { poll: { timeout: 15_000 } },
    // Suites start real servers and child processes; two cores, so keep the fan-out modest.
    maxWorkers: 2,
    // Without CONVO_KIT_PG_URL, the PostgreSQL tests try the local default server (test/support/postgres-server.ts).
    // The CLI processes tests start run src/ as JavaScript, built once per run (test/support/sources-as-js.ts).
    globalSetup: ['./test/support/postgres-server.ts', './test/support/sources-as-js.ts'],
    reporters: ['default', './test/support/summary-reporter.ts'],
  },
});
