import { isEventName, isEventPattern, matchesPattern, type EventPattern } from '../events/index.js';
import type { EventHandler, EventContext } from './event-handler.js';
import { InvalidOptionError } from '../errors.js';

type AnyHandler = (context: EventContext<'*'>) => unknown;

/** Handlers by pattern, in registration order. */
export class EventHandlerRegistry {
  private readonly entries: { pattern: string; handler: AnyHandler }[] = [];

  add<P extends EventPattern>(pattern: P, handler: EventHandler<P>): void {
    if (typeof pattern !== 'string' || !isEventPattern(pattern)) {
      throw new InvalidOptionError(
        `Expected an event name, \`*\` or one of message.* conversation.* contact.* ticket.* template.*, got \`${String(pattern)}\``,
      );
    }
    if (typeof handler !== 'function')
      throw new InvalidOptionError(`Expected a handler function for \`${pattern}\`, got ${typeof handler}`);
    this.entries.push({ pattern, handler: handler as AnyHandler });
  }

  /**
   * Known events go to every matching pattern. Unknown events go to `*` and to an exact-name handler
   * only: a `message.*` handler is typed for the known message events and must not see a stranger.
   */
  matching(event: string): AnyHandler[] {
    const known = isEventName(event);
    return this.entries
      .filter((e) =>
        known ? matchesPattern(e.pattern, event) : e.pattern === '*' || (e.pattern === event && !event.includes('*')),
      )
      .map((e) => e.handler);
  }
}
