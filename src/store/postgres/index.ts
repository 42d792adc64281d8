export { createPostgresStore, type PostgresStoreOptions } from './postgres-store.js';
