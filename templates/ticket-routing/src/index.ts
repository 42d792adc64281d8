// What other code (tests, the repository's sample integration) reuses from this project.
export { readConfig, type AppConfig } from './app-config.js';
export { AssignmentBook, type TicketLoad } from './assignment-book.js';
export { withinBusinessHours } from './business-hours.js';
export { chooseAssignee, higherPriority, ruleMatches, type Decision, type RoutingFacts } from './choose-assignee.js';
export { registerTicketRouting } from './register-ticket-routing.js';
export { routeTicket, MAX_ROUTING_ATTEMPTS } from './route-ticket.js';
export {
  loadRoutingConfig,
  parseRoutingConfig,
  RoutingConfig,
  RoutingConfigError,
  type Priority,
  type RoutingRule,
} from './routing-config.js';
export { etag, type EventEffects, type KitClient, type RouteOutcome, type RoutingContext } from './routing-context.js';
export { loadOpenTickets, ROUTING_EVENTS, routingHandlers, type RoutingEvent } from './routing-handlers.js';
export { checkSla, slaPriority, startSlaWatch, type Escalation } from './sla-watch.js';
export {
  startTicketRouting,
  WEBHOOK_PATH,
  type TicketRoutingApp,
  type TicketRoutingAppOptions,
} from './ticket-routing-app.js';
