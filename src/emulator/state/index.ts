// The workspace's resource state: JSON documents in SQLite (Collection), one store per resource, the seed's building blocks.
export { Collection, type ListOptions } from './collection.js';
export { SCHEMA_SQL } from './docs-schema.js';
export { stores, type Stores } from './stores.js';
export { Account, Group, TemplateRecord } from './records.js';
export { SEED_IDS, DEFAULT_STAGES } from './seed-fixtures.js';
export { buildWorkspace, type Workspace } from './seed-workspace.js';
