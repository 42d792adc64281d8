import { importOptional, type OptionalPackage } from '../../internal/optional-package.js';

/** node-postgres is a peer dependency only the PostgreSQL store's users install (docs/packages.md). */
export const PG_PACKAGE: OptionalPackage = {
  name: 'pg',
  neededBy: 'The PostgreSQL store (convo-kit/store/postgres)',
  install: 'npm install pg (and npm install --save-dev @types/pg for its types)',
};

/** Loaded when `convo-kit/store/postgres` is imported: a missing driver is one line naming it, at that import. */
export const { default: postgresDriver } = await importOptional(PG_PACKAGE, () => import('pg'));
