import { type RoutingConfig } from './routing-config.js';

interface Known {
  version: number;
  assignee: string | null;
  open: boolean;
}

const OPEN_STATUSES = new Set(['open', 'pending', 'on_hold']);
const MAX_TRACKED = 100_000; // one entry per ticket; past this, the oldest closed ones are forgotten

/** A ticket as far as load counting cares. */
export interface TicketLoad {
  id: string;
  version: number;
  status: string;
  assignee: string | null;
}

/**
 * Who holds how many open tickets, and whose turn it is per rule. Fed by ticket events in any order:
 * a ticket's entry only moves forward in `version`, so a late or repeated event changes nothing.
 */
export class AssignmentBook {
  readonly #tickets = new Map<string, Known>();
  readonly #turns = new Map<string, number>();

  constructor(private readonly config: RoutingConfig) {}

  /** @returns whether the book changed */
  track(ticket: TicketLoad): boolean {
    const known = this.#tickets.get(ticket.id);
    if (known && known.version >= ticket.version) return false;
    // Closed tickets stay known (by version), so a late event from before the close cannot reopen them.
    if (!known && this.#tickets.size >= MAX_TRACKED && !this.#forgetOneClosed()) return false;
    this.#tickets.set(ticket.id, {
      version: ticket.version,
      assignee: ticket.assignee,
      open: OPEN_STATUSES.has(ticket.status),
    });
    return true;
  }

  #forgetOneClosed(): boolean {
    for (const [id, known] of this.#tickets) {
      if (!known.open) return this.#tickets.delete(id);
    }
    return false;
  }

  openCount(assignee: string): number {
    let count = 0;
    for (const known of this.#tickets.values()) if (known.open && known.assignee === assignee) count += 1;
    return count;
  }

  hasRoom(assignee: string): boolean {
    const limit = this.config.assignees[assignee]?.max_open ?? 0;
    return this.openCount(assignee) < limit;
  }

  /** The next candidate of a rule in round-robin order who is under their limit, or null when all are full. */
  nextFor(ruleName: string, candidates: readonly string[]): string | null {
    const start = this.#turns.get(ruleName) ?? 0;
    for (let step = 0; step < candidates.length; step += 1) {
      const candidate = candidates[(start + step) % candidates.length];
      if (this.hasRoom(candidate)) return candidate;
    }
    return null;
  }

  /** Moves the rule's turn past the one just given a ticket. */
  advance(ruleName: string, candidates: readonly string[], given: string): void {
    this.#turns.set(ruleName, (candidates.indexOf(given) + 1) % candidates.length);
  }

  loads(): Record<string, number> {
    return Object.fromEntries(Object.keys(this.config.assignees).map((name) => [name, this.openCount(name)]));
  }
}
