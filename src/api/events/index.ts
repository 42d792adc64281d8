export {
  eventSchemas,
  Envelope,
  EVENT_NAMES,
  isEventName,
  type EventName,
  type EventData,
  type EventSchemas,
} from './catalog.js';
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
} from './subscription.js';
export { sampleEvent, type SampleEnvelope, type DeepPartial } from './samples.js';
