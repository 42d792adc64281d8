import { isApiError } from 'convo-kit/client';
import { higherPriority } from './choose-assignee.js';
import { type Priority } from './routing-config.js';
import { MAX_ROUTING_ATTEMPTS } from './route-ticket.js';
import { type Ticket } from 'convo-kit/resources';
import { etag, type RoutingContext } from './routing-context.js';

const WATCHED_STATUSES = ['open', 'pending', 'on_hold'] as const;
const MAX_TICKETS_PER_CHECK = 10_000;

export interface Escalation {
  ticketId: string;
  from: Priority;
  to: Priority;
}

/** The priority a ticket should have by now: `high` once its SLA is within the window, `urgent` once it is due. */
export function slaPriority(
  ticket: Pick<Ticket, 'priority' | 'sla_due_at'>,
  now: Date,
  withinMinutes: number,
): Priority {
  if (ticket.sla_due_at === null) return ticket.priority;
  const remainingMs = Date.parse(ticket.sla_due_at) - now.getTime();
  if (remainingMs <= 0) return higherPriority(ticket.priority, 'urgent');
  if (remainingMs <= withinMinutes * 60_000) return higherPriority(ticket.priority, 'high');
  return ticket.priority;
}

/** One pass over the open tickets: raises the priority of those whose SLA is near or past (with If-Match). */
export async function checkSla(ctx: RoutingContext): Promise<Escalation[]> {
  const escalations: Escalation[] = [];
  let seen = 0;
  for (const status of WATCHED_STATUSES) {
    for await (const ticket of ctx.client.tickets.list({ status, limit: 100 })) {
      const escalation = await escalate(ctx, ticket);
      if (escalation) escalations.push(escalation);
      if (++seen >= MAX_TICKETS_PER_CHECK) return escalations;
    }
  }
  return escalations;
}

async function escalate(ctx: RoutingContext, first: Ticket): Promise<Escalation | null> {
  let ticket = first;
  for (let attempt = 1; attempt <= MAX_ROUTING_ATTEMPTS; attempt += 1) {
    const target = slaPriority(ticket, ctx.now?.() ?? new Date(), ctx.config.sla.escalate_within_minutes);
    if (target === ticket.priority) return null;
    try {
      const updated = await ctx.client.tickets.update({
        id: ticket.id,
        priority: target,
        ifMatch: etag(ticket.version),
      });
      ctx.book.track(updated);
      return { ticketId: ticket.id, from: ticket.priority, to: updated.priority };
    } catch (error) {
      if (!isApiError(error, 'VERSION_CONFLICT')) throw error;
      ticket = await ctx.client.tickets.get({ id: ticket.id });
    }
  }
  return null;
}

/** Runs `checkSla` every `sla.check_every_seconds` (never two at once); returns a stop function. */
export function startSlaWatch(
  ctx: RoutingContext,
  onEscalated: (e: Escalation) => void = () => {},
  onError: (error: unknown) => void = () => {},
): () => void {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    checkSla(ctx)
      .then((list) => list.forEach(onEscalated))
      .catch(onError)
      .finally(() => {
        running = false;
      });
  }, ctx.config.sla.check_every_seconds * 1000);
  timer.unref();
  return () => clearInterval(timer);
}
