import type { Ticket } from '../../resources/index.js';
import { ApiFailure } from '../api-failure.js';

/** The ticket's ETag (docs/resources.md): its version in double quotes. */
export function ticketEtag(ticket: Pick<Ticket, 'version'>): string {
  return `"${ticket.version}"`;
}

/**
 * Optimistic concurrency: an `If-Match` that no longer names the current version is refused;
 * without one the update applies (last write wins). Weak (`W/"3"`) and bare (`3`) forms are accepted,
 * and `*` matches any version.
 */
export function checkIfMatch(ticket: Pick<Ticket, 'id' | 'version'>, ifMatch: string | undefined): void {
  if (ifMatch === undefined || ifMatch.trim() === '*') return;
  const wanted = ifMatch.split(',').map((tag) =>
    tag
      .trim()
      .replace(/^W\//, '')
      .replace(/^"(.*)"$/, '$1'),
  );
  if (wanted.includes(String(ticket.version))) return;
  throw new ApiFailure(
    'VERSION_CONFLICT',
    `Ticket ${ticket.id} is at version ${ticket.version}, not ${ifMatch}: fetch it again and reapply your change`,
    {
      details: [{ current_version: ticket.version, if_match: ifMatch }],
    },
  );
}
