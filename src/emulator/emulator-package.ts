import type { OptionalPackage } from '../internal/optional-package.js';

/**
 * The emulator's document parsers and multipart reader come with this package, not with convo-kit, so a
 * production install stays lean (docs/packages.md). The emulator's modules import them through its subpaths.
 */
export const EMULATOR_PACKAGE: OptionalPackage = {
  name: '@convo-kit/emulator',
  neededBy: 'The emulator',
  install: 'npm install --save-dev @convo-kit/emulator',
};
