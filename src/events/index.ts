// The `convo-kit/events` entry. The event catalog is part of the contract and lives with it in src/api/events
// (the webhook subscription schema and the OpenAPI document read it there), so this folder defines nothing.
export {
  eventSchemas,
  Envelope,
  EVENT_NAMES,
  isEventName,
  type EventName,
  type EventData,
  type EventSchemas,
} from '../api/events/catalog.js';
export {
  EVENT_NAMESPACES,
  isEventPattern,
  isSubscribable,
  SUBSCRIBABLE,
  matchesPattern,
  matchesAny,
  type EventNamespace,
  type EventPattern,
  type EventsMatching,
} from '../api/events/subscription.js';
export { sampleEvent, type SampleEnvelope, type DeepPartial } from '../api/events/samples.js';
