import { endpoint } from '../endpoint.js';
import { BusinessEventAccepted, BusinessEventFire } from '../schemas/business-event.js';

export const events = {
  fire: endpoint({
    method: 'POST',
    path: '/v1/events',
    summary: 'Fire an external business event; the journeys mapped to it enroll the phone',
    scope: 'journeys:write',
    body: BusinessEventFire,
    response: BusinessEventAccepted,
    status: 202,
  }),
};
