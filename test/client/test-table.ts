import { z } from 'zod';
import { endpoint } from '../../src/api/endpoint.js';
import { page, PageQuery } from '../../src/api/schemas/page.js';

const Item = z.looseObject({ id: z.string(), n: z.number().int() });
const Thing = z.looseObject({ id: z.string(), name: z.string(), version: z.number().int() });

/** A small contract table in the shape of the real one, so the client's mechanics are tested on their own. */
export const testTable = {
  things: {
    list: endpoint({
      method: 'GET',
      path: '/v1/things',
      summary: 'List things',
      scope: 'tickets:read',
      query: PageQuery.extend({ status: z.enum(['active', 'closed']).optional() }),
      response: page(Item),
      paginated: true,
    }),
    get: endpoint({
      method: 'GET',
      path: '/v1/things/:id',
      summary: 'One thing',
      scope: 'tickets:read',
      params: z.object({ id: z.string().min(1) }),
      response: Thing,
    }),
    update: endpoint({
      method: 'PATCH',
      path: '/v1/things/:id',
      summary: 'Update a thing',
      scope: 'tickets:write',
      params: z.object({ id: z.string().min(1) }),
      headers: z.object({
        'if-match': z
          .string()
          .regex(/^"\d+"$/, 'expected an ETag such as "3"')
          .optional(),
      }),
      body: z.strictObject({
        name: z.string().min(1).max(20).optional(),
        tags: z.array(z.string().max(5)).max(3).optional(),
      }),
      response: Thing,
    }),
    create: endpoint({
      method: 'POST',
      path: '/v1/things',
      summary: 'Create a thing (no Idempotency-Key)',
      scope: 'tickets:write',
      body: z.strictObject({ name: z.string().min(1).max(20) }),
      response: Thing,
      status: 201,
    }),
    send: endpoint({
      method: 'POST',
      path: '/v1/things/:id/send',
      summary: 'Send a thing (Idempotency-Key required)',
      scope: 'messages:send',
      params: z.object({ id: z.string().min(1) }),
      body: z.strictObject({ content: z.string().min(1).max(4096) }),
      response: Thing,
      status: 201,
      idempotencyKey: 'required',
    }),
    remove: endpoint({
      method: 'DELETE',
      path: '/v1/things/:id',
      summary: 'Delete',
      scope: 'tickets:write',
      params: z.object({ id: z.string().min(1) }),
      response: z.void(),
      status: 204,
    }),
  },
  health: {
    get: endpoint({
      method: 'GET',
      path: '/v1/status',
      summary: 'Status',
      scope: null,
      auth: false,
      response: z.looseObject({ status: z.string() }),
    }),
  },
};

export const thing = (id = 'thg_1', version = 1) => ({ id, name: 'first', version });
