import { describe, expect, expectTypeOf, it } from 'vitest';
import { EVENT_NAMES, matchesPattern, isEventPattern, type EventsMatching } from '../../events/index.js';

describe('matchesPattern', () => {
  it('knows the 14 events', () => {
    expect(EVENT_NAMES).toHaveLength(14);
  });

  it('matches exact names, * and the namespace wildcards', () => {
    for (const name of EVENT_NAMES) {
      expect(matchesPattern('*', name)).toBe(true);
      expect(matchesPattern(name, name)).toBe(true);
      expect(matchesPattern(`${name.split('.')[0]}.*`, name)).toBe(true);
    }
    expect(matchesPattern('ticket.*', 'message.sent')).toBe(false);
    expect(matchesPattern('message.sent', 'message.received')).toBe(false);
  });

  it('matches an unknown event under * and its namespace', () => {
    expect(matchesPattern('*', 'message.edited')).toBe(true);
    expect(matchesPattern('message.*', 'message.edited')).toBe(true);
  });

  it('treats nothing else as a wildcard', () => {
    expect(matchesPattern('mess*', 'message.sent')).toBe(false);
    expect(matchesPattern('message.s*', 'message.sent')).toBe(false);
    expect(matchesPattern('*.sent', 'message.sent')).toBe(false);
    expect(matchesPattern('billing.*', 'billing.paid')).toBe(false);
    expect(matchesPattern('message.*', 'messages.sent')).toBe(false);
    expect(isEventPattern('billing.*')).toBe(false);
    expect(isEventPattern('ticket.*')).toBe(true);
  });

  it('types what a pattern selects', () => {
    expectTypeOf<EventsMatching<'ticket.*'>>().toEqualTypeOf<
      'ticket.created' | 'ticket.updated' | 'ticket.assigned' | 'ticket.closed'
    >();
    expectTypeOf<EventsMatching<'contact.opted_out'>>().toEqualTypeOf<'contact.opted_out'>();
  });
});
