import { type AssignmentBook } from './assignment-book.js';
import { withinBusinessHours } from './business-hours.js';
import { type Priority, type RoutingConfig, type RoutingRule } from './routing-config.js';
import { type Channel, type Ticket } from 'convo-kit/resources';

/** What the rules look at: read from the ticket, its conversation and the customer's recent words. */
export interface RoutingFacts {
  kind: Ticket['kind'];
  priority: Priority;
  channel: Channel | null;
  /** The ticket subject and recent inbound messages, joined. */
  text: string;
  at: Date;
}

export interface Decision {
  rule: string;
  assignee: string;
  priority: Priority;
}

const RANK: Record<Priority, number> = { low: 0, normal: 1, high: 2, urgent: 3 };

/** Raises, never lowers: a rule's `set_priority` below the ticket's own is ignored. */
export function higherPriority(a: Priority, b: Priority): Priority {
  return RANK[a] >= RANK[b] ? a : b;
}

export function ruleMatches(rule: RoutingRule, facts: RoutingFacts, config: RoutingConfig): boolean {
  const { when } = rule;
  if (when.kind && !when.kind.includes(facts.kind)) return false;
  if (when.priority && !when.priority.includes(facts.priority)) return false;
  if (when.channel && (facts.channel === null || !when.channel.includes(facts.channel))) return false;
  if (when.keywords && !when.keywords.some((word) => containsWord(facts.text, word))) return false;
  if (when.business_hours !== undefined && withinBusinessHours(facts.at, config) !== when.business_hours) return false;
  return true;
}

/**
 * The first rule that matches and has someone with room decides; a matching rule whose candidates
 * are all at their limit passes the ticket to the next rule. Null: nobody can take it now.
 */
export function chooseAssignee(facts: RoutingFacts, config: RoutingConfig, book: AssignmentBook): Decision | null {
  for (const rule of config.rules) {
    if (!ruleMatches(rule, facts, config)) continue;
    const assignee = book.nextFor(rule.name, rule.assign);
    if (assignee)
      return {
        rule: rule.name,
        assignee,
        priority: higherPriority(facts.priority, rule.set_priority ?? facts.priority),
      };
  }
  return null;
}

function containsWord(text: string, word: string): boolean {
  const escaped = word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(^|[^\\p{L}\\p{N}])${escaped}`, 'iu').test(text);
}
