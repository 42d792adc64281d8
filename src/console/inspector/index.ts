export { createInspector, INSPECTOR_PATH, type InspectorHandler, type InspectorOptions } from './create-inspector.js';
export { mountAt } from '../serve-page.js';
export { REPLAY_MAX_IDS, type InspectorReplayOutcome, type InspectorSource } from './inspector-api.js';
