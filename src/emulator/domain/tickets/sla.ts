import type { z } from 'zod';
import type { TicketPriority } from '../../../resources/index.js';

/** How long a new ticket may wait for a first human response, by priority. */
export const SLA_HOURS: Record<z.output<typeof TicketPriority>, number> = { urgent: 1, high: 4, normal: 24, low: 72 };

export function slaDueAt(priority: z.output<typeof TicketPriority>, fromMs: number): string {
  return new Date(fromMs + SLA_HOURS[priority] * 3_600_000).toISOString();
}
