import type { Contact } from '../../../resources/index.js';
import type { EmulatorContext } from '../../route-handler.js';
import { providerOutcome } from '../shared/provider-outcome.js';

/**
 * A contact the service creates on first contact (a customer writing in, or a send to a new number). A
 * sandbox number ending 0003 belongs to a contact who opted out (docs/emulator.md): the record says so
 * from the start, so that it, the sends and a later START all agree.
 */
export function newContact(
  ctx: Pick<EmulatorContext, 'newId'>,
  input: { name: string | null; phone: string | null; identity: Contact['identities'][number]; now: string },
): Contact {
  return {
    id: ctx.newId('ct'),
    name: input.name,
    email: null,
    phone: input.phone,
    lead_stage: 'new',
    score: 0,
    owner: null,
    identities: [input.identity],
    opted_out: providerOutcome(input.phone).kind === 'opted_out',
    created_at: input.now,
    updated_at: input.now,
  };
}
