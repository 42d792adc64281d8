import { Contact, ContactListQuery, ContactUpdate } from '../schemas/contact.js';
import { endpoint } from '../endpoint.js';
import { page } from '../schemas/page.js';
import { IdParams } from '../schemas/common.js';

export const contacts = {
  list: endpoint({
    method: 'GET',
    path: '/v1/contacts',
    summary: 'List contacts',
    scope: 'contacts:read',
    query: ContactListQuery,
    response: page(Contact),
    paginated: true,
  }),
  get: endpoint({
    method: 'GET',
    path: '/v1/contacts/:id',
    summary: 'One contact',
    scope: 'contacts:read',
    params: IdParams,
    response: Contact,
  }),
  update: endpoint({
    method: 'PATCH',
    path: '/v1/contacts/:id',
    summary: 'Update name, email or lead stage',
    scope: 'contacts:write',
    params: IdParams,
    body: ContactUpdate,
    response: Contact,
  }),
};
