import { defineConfig } from 'vitest/config';

// `npm run test:registry`: the packages as a user gets them. Packs them, publishes them to a local Verdaccio,
// and runs `npm create convo-kit@latest` and the README's quick start against it (docs/packages.md). Minutes
// of installs, so it is a step of its own in .ci/run, not part of `npm test`.
export default defineConfig({
  test: {
    include: ['test/registry/**/*.test.ts'],
    testTimeout: 300_000,
    hookTimeout: 1_500_000, // each hook sets its own bound (test/registry/registry.test.ts)
    fileParallelism: false,
    reporters: ['default'],
  },
});
