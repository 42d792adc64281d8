import { expect } from 'vitest';
import { ConflictError, InvalidInputError, ValidationFailedError } from '../../../src/client/index.js';
import { DEFAULT_STAGES } from '../../../src/emulator/seed.js';
import { findFirst, rejection } from '../harness.js';
import type { RouteCases } from './route-case.js';

/** A filtered first page keeps `one` (the row the filter was built from) and only rows that match. */
async function expectFiltered<T extends { id: string }>(
  page: PromiseLike<{ data: T[] }>,
  one: T,
  matches: (row: T) => boolean,
): Promise<void> {
  const { data } = await page;
  expect(data.map((row) => row.id)).toContain(one.id);
  expect(data.every(matches)).toBe(true);
}

/** Tickets, contacts and the pipeline. */
export const crmCases = {
  'tickets.list': async ({ client }) => {
    const any = await findFirst(
      client.tickets.list({ limit: 100 }),
      'ticket of a conversation',
      (t) => t.conversation_id !== null,
    );
    await expectFiltered(
      client.tickets.list({ status: any.status, kind: any.kind, limit: 100 }),
      any,
      (t) => t.status === any.status && t.kind === any.kind,
    );
    await expectFiltered(
      client.tickets.list({ conversation_id: any.conversation_id ?? undefined }),
      any,
      (t) => t.conversation_id === any.conversation_id,
    );
  },

  'tickets.get': async ({ client }) => {
    const listed = await findFirst(client.tickets.list(), 'ticket');
    const { data, response } = await client.tickets.get({ id: listed.id }).withResponse();
    expect(data).toMatchObject({ id: listed.id, version: listed.version, subject: listed.subject });
    expect(response.etag).toBe(`"${data.version}"`);
  },

  'tickets.update': async ({ client }) => {
    const listed = await findFirst(client.tickets.list({ status: 'open' }), 'open ticket');
    const { data: before, response } = await client.tickets.get({ id: listed.id }).withResponse();
    const priority = before.priority === 'urgent' ? 'low' : 'urgent';
    const updated = await client.tickets.update({
      id: before.id,
      priority,
      assignee: 'agent_e2e',
      ifMatch: response.etag ?? undefined,
    });
    expect(updated).toMatchObject({ id: before.id, priority, assignee: 'agent_e2e', version: before.version + 1 });
    expect(await client.tickets.get({ id: before.id })).toMatchObject({ priority, assignee: 'agent_e2e' });
    // A stale ETag is the service's VERSION_CONFLICT; a malformed one never leaves the client.
    expect(
      await rejection(client.tickets.update({ id: before.id, status: 'pending', ifMatch: response.etag ?? undefined })),
    ).toBeInstanceOf(ConflictError);
    expect(
      await rejection(client.tickets.update({ id: before.id, status: 'pending', ifMatch: 'three' })),
    ).toBeInstanceOf(InvalidInputError);
  },

  'contacts.list': async ({ client }) => {
    const any = await findFirst(client.contacts.list(), 'contact');
    await expectFiltered(
      client.contacts.list({ lead_stage: any.lead_stage, limit: 100 }),
      any,
      (c) => c.lead_stage === any.lead_stage,
    );
  },

  'contacts.get': async ({ client }) => {
    const listed = await findFirst(client.contacts.list(), 'contact with a phone', (c) => c.phone !== null);
    expect(await client.contacts.get({ id: listed.id })).toMatchObject({
      id: listed.id,
      phone: listed.phone,
      name: listed.name,
    });
    expect(await rejection(client.contacts.get({ id: 'ct_does_not_exist' }))).toMatchObject({
      status: 404,
      code: 'NOT_FOUND',
    });
  },

  'contacts.update': async ({ client }) => {
    const listed = await findFirst(client.contacts.list(), 'contact');
    const name = `E2E Renamed ${Date.now()}`;
    const updated = await client.contacts.update({ id: listed.id, name, email: 'renamed@example.com' });
    expect(updated).toMatchObject({ id: listed.id, name, email: 'renamed@example.com' });
    expect(await client.contacts.get({ id: listed.id })).toMatchObject({ name, email: 'renamed@example.com' });
    const bad = await rejection(client.contacts.update({ id: listed.id, email: 'not an address' }));
    expect(bad).toBeInstanceOf(InvalidInputError);
    // The lead stage is checked by the service against its stage list, and moves the contact's leads with it.
    const lead = await findFirst(client.pipeline.listLeads(), 'lead not yet won', (l) => l.stage !== 'won');
    expect((await client.contacts.update({ id: lead.contact_id, lead_stage: 'won' })).lead_stage).toBe('won');
    expect((await client.pipeline.getLead({ id: lead.id })).stage).toBe('won');
    const unknownStage = await rejection(client.contacts.update({ id: lead.contact_id, lead_stage: 'no_such_stage' }));
    expect(unknownStage).toBeInstanceOf(ValidationFailedError);
    expect((unknownStage as ValidationFailedError).fields.map((f) => f.path)).toEqual(['lead_stage']);
  },

  'pipeline.listLeads': async ({ client }) => {
    const any = await findFirst(client.pipeline.listLeads(), 'lead');
    await expectFiltered(
      client.pipeline.listLeads({ stage: any.stage, limit: 100 }),
      any,
      (l) => l.stage === any.stage,
    );
  },

  'pipeline.getLead': async ({ client }) => {
    const listed = await findFirst(client.pipeline.listLeads(), 'lead');
    expect(await client.pipeline.getLead({ id: listed.id })).toMatchObject({
      id: listed.id,
      contact_id: listed.contact_id,
      stage: listed.stage,
    });
  },

  'pipeline.updateLead': async ({ client }) => {
    const listed = await findFirst(client.pipeline.listLeads(), 'lead');
    const notes = `e2e notes ${Date.now()}`;
    expect(await client.pipeline.updateLead({ id: listed.id, notes, value: 1234.5, owner: 'agent_e2e' })).toMatchObject(
      { notes, value: 1234.5, owner: 'agent_e2e' },
    );
    expect(await client.pipeline.getLead({ id: listed.id })).toMatchObject({
      notes,
      value: 1234.5,
      owner: 'agent_e2e',
      stage: listed.stage,
    });
  },

  'pipeline.moveLead': async ({ client }) => {
    const lead = await findFirst(
      client.pipeline.listLeads(),
      'lead not yet in proposal',
      (l) => l.stage !== 'proposal',
    );
    const moved = await client.pipeline.moveLead({ id: lead.id, stage: 'proposal' });
    expect(moved).toMatchObject({ id: lead.id, stage: 'proposal' });
    expect((await client.pipeline.getLead({ id: lead.id })).stage).toBe('proposal');
    // The lead's contact moves with it.
    expect((await client.contacts.get({ id: lead.contact_id })).lead_stage).toBe('proposal');
    expect(await rejection(client.pipeline.moveLead({ id: lead.id, stage: 'no_such_stage' }))).toMatchObject({
      code: 'VALIDATION_FAILED',
    });
  },

  'pipeline.listStages': async ({ client }) => {
    const stages: string[] = [];
    for await (const s of client.pipeline.listStages({ limit: 2 })) stages.push(s.id);
    expect(stages).toEqual([...DEFAULT_STAGES]);
  },
} satisfies RouteCases;
