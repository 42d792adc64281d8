export { Dispatcher, type DispatcherOptions } from './dispatcher.js';
export { DeliveryQueue, ATTEMPT_LOG_SIZE, type DeliveryAttempt, type QueuedDelivery } from './delivery-queue.js';
export { postDelivery, USER_AGENT, type PostOutcome } from './post-delivery.js';
