import type { Clock } from '../route-handler.js';
import type { ChaosRule, ChaosState, ChaosStats, StoredChaosRule } from './chaos-rule.js';

/** Rules kept at once: one per endpoint plus the one for all (endpoints are capped at 100). */
const MAX_RULES = 101;

const noStats = (): ChaosStats => ({ duplicates_sent: 0, timeouts_forced: 0, deliveries_put_off: 0 });

/**
 * The delivery hazards a test asks for (`/_emulator/chaos`), held in memory: the dispatcher asks it when a
 * delivery is queued (when may it first go), after each attempt (count it as a timeout?) and after a
 * delivery (send it twice?). A reset or a restart clears it: chaos is asked for, never inherited.
 */
export class Chaos {
  private readonly rules = new Map<string | null, StoredChaosRule>();
  private stats = noStats();

  constructor(
    private readonly clock: Clock,
    /** Random numbers in [0, 1); tests of the emulator itself may pass a fixed sequence. */
    private readonly random: () => number = Math.random,
  ) {}

  /** Sets the rule of one endpoint (or of all), replacing the one it had; a rule with nothing on removes it. */
  set(rule: ChaosRule): ChaosState {
    const endpointId = rule.endpoint_id ?? null;
    const { endpoint_id: _endpoint, ...hazards } = rule;
    if (Object.values(hazards).every((v) => v === undefined || v === 0)) {
      this.rules.delete(endpointId);
      return this.state();
    }
    if (!this.rules.has(endpointId) && this.rules.size >= MAX_RULES) {
      throw new RangeError(`At most ${MAX_RULES} chaos rules are kept; clear some first`);
    }
    const hold = rule.burst_hold_seconds ?? 0;
    const burstUntil = hold > 0 ? new Date(this.clock.now() + hold * 1000).toISOString() : null;
    this.rules.set(endpointId, { ...hazards, endpoint_id: endpointId, burst_until: burstUntil });
    return this.state();
  }

  /** Removes every rule; answers the figures of the run that ends, then starts them again. */
  clear(): ChaosState {
    const ended = this.state();
    this.rules.clear();
    this.stats = noStats();
    return ended;
  }

  state(): ChaosState {
    return { rules: [...this.rules.values()], stats: { ...this.stats } };
  }

  private ruleFor(endpointId: string): StoredChaosRule | undefined {
    return this.rules.get(endpointId) ?? this.rules.get(null);
  }

  /** When a delivery queued `now` for this endpoint may first be attempted (ms on the emulator clock). */
  firstAttemptAt(endpointId: string, now: number): number {
    const rule = this.ruleFor(endpointId);
    if (!rule) return now;
    let at = now + (rule.delay_ms ?? 0);
    if (rule.reorder_window_ms) at += Math.floor(this.random() * rule.reorder_window_ms);
    if (rule.burst_until !== null) at = Math.max(at, Date.parse(rule.burst_until));
    if (at > now) this.stats.deliveries_put_off++;
    return at;
  }

  /** Is attempt number `attempt` (from 1) of a delivery to this endpoint to be counted as a timeout? */
  forcesTimeout(endpointId: string, attempt: number): boolean {
    const forced = attempt <= (this.ruleFor(endpointId)?.timeout_first_attempts ?? 0);
    if (forced) this.stats.timeouts_forced++;
    return forced;
  }

  /** Is a delivery this endpoint just accepted to be sent again, same id and bytes? */
  duplicates(endpointId: string): boolean {
    const rate = this.ruleFor(endpointId)?.duplicate_rate ?? 0;
    const again = rate > 0 && this.random() < rate;
    if (again) this.stats.duplicates_sent++;
    return again;
  }
}
