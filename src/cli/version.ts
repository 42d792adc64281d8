import { createRequire } from 'node:module';

/** The package version; `../../package.json` holds from src/cli and from dist/cli alike. */
export const CLI_VERSION = (createRequire(import.meta.url)('../../package.json') as { version: string }).version;

export const USER_AGENT = `convo-kit-cli/${CLI_VERSION}`;
