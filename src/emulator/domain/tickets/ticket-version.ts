import type { Ticket } from '../../../resources/index.js';
import { ifMatchTags } from '../../../api/schemas/if-match.js';
import { ApiFailure } from '../../api-failure.js';

/** The ticket's ETag (docs/resources.md): its version in double quotes. */
export function ticketEtag(ticket: Pick<Ticket, 'version'>): string {
  return `"${ticket.version}"`;
}

/**
 * Optimistic concurrency (docs/resources.md): an `If-Match` that names no current version is refused; without one
 * the update applies (last write wins). `*` matches whatever the version, a list when any member does, and a weak
 * tag (`W/"3"`) by its version. The header's schema has already refused a malformed value (400).
 */
export function checkIfMatch(ticket: Pick<Ticket, 'id' | 'version'>, ifMatch: string | undefined): void {
  if (ifMatch === undefined) return;
  const tags = ifMatchTags(ifMatch);
  if (tags === '*' || tags.includes(String(ticket.version))) return;
  const named = tags.length === 1 ? ifMatch.trim() : `any of ${ifMatch.trim()}`;
  throw new ApiFailure(
    'VERSION_CONFLICT',
    `Ticket ${ticket.id} is at version ${ticket.version}, not ${named}: fetch it again and reapply your change`,
    {
      details: [{ current_version: ticket.version, if_match: ifMatch }],
    },
  );
}
