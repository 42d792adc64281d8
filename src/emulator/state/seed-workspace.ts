import type { Contact, Ticket } from '../../resources/index.js';
import { slaDueAt } from '../domain/tickets/sla.js';
import { buildChat, type ChatSpec, type SeededChat } from './seed-chats.js';
import { DEFAULT_STAGES, SEED_IDS, seedAccounts } from './seed-fixtures.js';
import type { Lead } from '../../resources/index.js';
import type { Account } from './records.js';

type ContactSpec = ChatSpec['contact'];

function person(
  id: string,
  name: string,
  phone: string | null,
  handle: string,
  extra: Partial<ContactSpec> = {},
): ContactSpec {
  const email = `${name.toLowerCase().replace(/[^a-z]+/g, '.')}@example.com`;
  return { id, name, email, phone, handle, lead_stage: 'new', score: 40, owner: null, opted_out: false, ...extra };
}

/** The named chats every seed has: one per provider outcome and account rule (see SEED_IDS). */
function fixedChats(accounts: Record<string, Account>): Omit<ChatSpec, 'index'>[] {
  const main = accounts[SEED_IDS.phoneMain]!;
  const open = { status: 'active' as const, assignee: null, tags: [], lastInboundHoursAgo: 2, turns: 1 };
  const twins = person(SEED_IDS.twoAccounts.contact, 'Taylor Twin', '+14155550123', '+14155550123', {
    lead_stage: 'qualified',
    score: 72,
  });
  return [
    {
      ...open,
      contact: person(SEED_IDS.sendFailed.contact, 'Rita Rejected', '+14155550001', '+14155550001'),
      conversationId: SEED_IDS.sendFailed.conversation,
      account: main,
    },
    {
      ...open,
      contact: person(SEED_IDS.throttled.contact, 'Theo Throttled', '+14155550002', '+14155550002'),
      conversationId: SEED_IDS.throttled.conversation,
      account: main,
    },
    {
      ...open,
      contact: person(SEED_IDS.optedOut.contact, 'Olive Optout', '+14155550003', '+14155550003', { opted_out: true }),
      conversationId: SEED_IDS.optedOut.conversation,
      account: main,
      lastInboundContent: 'STOP',
    },
    {
      ...open,
      contact: twins,
      conversationId: SEED_IDS.twoAccounts.conversations[0],
      account: main,
      assignee: 'agent_ana',
    },
    {
      ...open,
      contact: twins,
      conversationId: SEED_IDS.twoAccounts.conversations[1],
      account: accounts[SEED_IDS.phoneSupport]!,
      lastInboundHoursAgo: 5,
    },
    {
      ...open,
      contact: person(SEED_IDS.windowClosed.contact, 'Wes Waited', '+14155550124', '+14155550124', {
        lead_stage: 'contacted',
      }),
      conversationId: SEED_IDS.windowClosed.conversation,
      account: main,
      lastInboundHoursAgo: 30,
    },
    {
      ...open,
      contact: person(SEED_IDS.delivered.contact, 'Dana Delivered', '+14155550125', '+14155550125', {
        lead_stage: 'proposal',
        score: 88,
      }),
      conversationId: SEED_IDS.delivered.conversation,
      account: main,
      turns: 2,
    },
    {
      ...open,
      contact: person(SEED_IDS.photoChat.contact, 'Maya Makes', null, '@maya.makes', { lead_stage: 'qualified' }),
      conversationId: SEED_IDS.photoChat.conversation,
      account: accounts[SEED_IDS.photo]!,
      tags: ['instagram-dm'],
    },
    {
      ...open,
      contact: person(SEED_IDS.pageChat.contact, 'Sam Page', null, 'psid_7731'),
      conversationId: SEED_IDS.pageChat.conversation,
      account: accounts[SEED_IDS.page]!,
      status: 'snoozed',
    },
  ];
}

const FIRST = ['Ana', 'Ben', 'Chloe', 'Diego', 'Emma', 'Farid', 'Grace', 'Hugo', 'Iris', 'Jonas', 'Kira', 'Liam'];
const LAST = ['Silva', 'Okafor', 'Nguyen', 'Muller', 'Rossi', 'Kowalski', 'Tanaka', 'Haddad'];

/** `size` more chats, spread over the four accounts, with open and closed windows and every status. */
function generatedChats(size: number, accounts: Record<string, Account>): ChatSpec[] {
  const rotation = [SEED_IDS.phoneMain, SEED_IDS.phoneSupport, SEED_IDS.photo, SEED_IDS.page];
  return Array.from({ length: size }, (_, i) => {
    const account = accounts[rotation[i % 4]!]!;
    const n = String(i + 1).padStart(5, '0');
    const name = `${FIRST[i % FIRST.length]} ${LAST[i % LAST.length]}`;
    // Ends in 4, never in the sandbox's 0001-0003.
    const phone = `+1206${5_000_000 + i * 10 + 4}`;
    const handle =
      account.channel === 'phone' ? phone : account.channel === 'photo_social' ? `@customer.${n}` : `psid_${n}`;
    return {
      contact: person(`ct_seed_${n}`, name, account.channel === 'phone' ? phone : null, handle, {
        lead_stage: DEFAULT_STAGES[i % DEFAULT_STAGES.length]!,
        score: (i * 37) % 101,
        owner: i % 3 === 0 ? 'agent_ana' : null,
      }),
      conversationId: `conv_seed_${n}`,
      account,
      status: i % 5 === 4 ? 'closed' : i % 7 === 6 ? 'snoozed' : 'active',
      assignee: i % 3 === 0 ? 'agent_ana' : i % 3 === 1 ? 'agent_ben' : null,
      tags: i % 2 === 0 ? ['vip'] : [],
      lastInboundHoursAgo: i % 3 === 2 ? 26 + (i % 40) : 1 + (i % 20),
      turns: 1 + (i % 2),
      index: i,
    };
  });
}

export interface Workspace {
  accounts: Account[];
  chats: SeededChat[];
  contacts: Contact[];
  tickets: Ticket[];
  leads: Lead[];
}

/** Builds (without storing) the seeded workspace for `size` generated chats at emulator time `nowMs`. */
export function buildWorkspace(size: number, nowMs: number): Workspace {
  const accounts = seedAccounts(new Date(nowMs - 90 * 86_400_000).toISOString());
  const byId = Object.fromEntries(accounts.map((a) => [a.integration_id, a]));
  const specs = [...fixedChats(byId).map((spec, index) => ({ ...spec, index })), ...generatedChats(size, byId)];
  const chats = specs.map((spec) => buildChat(spec, nowMs));
  // A contact with chats on several accounts is one contact with several identities.
  const contacts = new Map<string, Contact>();
  for (const { contact } of chats) {
    const seen = contacts.get(contact.id);
    contacts.set(contact.id, seen ? { ...seen, identities: [...seen.identities, ...contact.identities] } : contact);
  }
  const kinds = ['handoff', 'safety_review', 'routing_rule'] as const;
  const statuses = ['open', 'pending', 'on_hold', 'resolved', 'closed', 'open'] as const;
  const priorities = ['normal', 'high', 'low', 'urgent'] as const;
  const tickets: Ticket[] = chats
    .filter((_, i) => i % 3 === 0)
    .map(({ conversation }, i) => {
      const status = statuses[i % statuses.length]!;
      const priority = priorities[i % priorities.length]!;
      return {
        id: `tkt_seed_${String(i + 1).padStart(5, '0')}`,
        kind: kinds[i % kinds.length]!,
        status,
        priority,
        assignee: i % 2 === 0 ? 'agent_ben' : null,
        conversation_id: conversation.id,
        contact_id: conversation.contact_id,
        subject: `${kinds[i % kinds.length] === 'handoff' ? 'Handoff' : 'Review'}: ${conversation.customer.name ?? conversation.customer.handle}`,
        sla_due_at: slaDueAt(priority, Date.parse(conversation.latest_activity_at)),
        resolution: status === 'resolved' || status === 'closed' ? { reason: 'answered', note: null } : null,
        version: 1,
        created_at: conversation.latest_activity_at,
        updated_at: conversation.latest_activity_at,
      };
    });
  const firstChat = new Map<string, string>();
  for (const { contact, conversation } of chats)
    if (!firstChat.has(contact.id)) firstChat.set(contact.id, conversation.id);
  const leads: Lead[] = [...contacts.values()]
    .filter((_, i) => i % 2 === 0)
    .map((contact, i) => ({
      id: `lead_seed_${String(i + 1).padStart(5, '0')}`,
      contact_id: contact.id,
      conversation_id: firstChat.get(contact.id) ?? null,
      name: `${contact.name ?? contact.id}: ${i % 2 === 0 ? 'new order' : 'bulk inquiry'}`,
      stage: contact.lead_stage,
      value: 50 + ((i * 130) % 2000),
      owner: contact.owner,
      notes: null,
      stage_changed_at: contact.updated_at,
      created_at: contact.created_at,
      updated_at: contact.updated_at,
    }));
  return { accounts, chats, contacts: [...contacts.values()], tickets, leads };
}
