import { describe, expect, it } from 'vitest';
import { EVENT_NAMES, eventSchemas, Envelope } from '../../events/index.js';
import { sampleEvent } from './samples.js';

describe('sampleEvent', () => {
  it.each(EVENT_NAMES)('gives a %s envelope valid against its schemas', (name) => {
    const sample = sampleEvent(name);
    expect(sample.event).toBe(name);
    expect(sample.id).toMatch(/^evt_/);
    expect(Envelope.safeParse(sample).success).toBe(true);
    const parsed = eventSchemas[name].safeParse(sample.data);
    expect(parsed.error?.issues ?? []).toEqual([]);
  });

  it('deep-merges overrides: nested objects key by key, arrays replaced', () => {
    const sample = sampleEvent('conversation.created', { data: { routing: { queue: 'vip' }, tags: ['a'] } });
    expect(sample.data.routing).toEqual({ team: 'sales', queue: 'vip' });
    expect(sample.data.tags).toEqual(['a']);
    expect(sample.data.customer.name).toBe('Ada Lovelace');
  });

  it('lets overrides replace envelope fields and add unknown ones', () => {
    const sample = sampleEvent('ticket.created', { id: 'evt_fixed', data: { priority: 'urgent', extra: 1 } as never });
    expect(sample.id).toBe('evt_fixed');
    expect(sample.data).toMatchObject({ priority: 'urgent', extra: 1, kind: 'handoff' });
  });

  it('gives fresh ids on each call', () => {
    expect(sampleEvent('message.received').id).not.toBe(sampleEvent('message.received').id);
  });

  it('refuses an unknown event name, listing the known ones', () => {
    expect(() => sampleEvent('message.edited' as never)).toThrow(/Unknown event `message.edited`.*ticket.closed/);
  });
});
