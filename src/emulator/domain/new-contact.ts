import type { Contact } from '../../resources/index.js';
import type { EmulatorContext } from '../route-handler.js';

/** A contact the service creates on first contact (a customer writing in, or a send to a new number). */
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
    opted_out: false,
    created_at: input.now,
    updated_at: input.now,
  };
}
