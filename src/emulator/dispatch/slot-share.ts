/**
 * An attempt that has had no answer for this long gives its slot back and waits on beside the slots: a
 * receiver that accepts connections and never answers would otherwise hold each slot for the whole 8 s
 * deadline, and ten of them every slot (the second probe: a healthy endpoint waited 88 s).
 */
export const SLOW_ATTEMPT_MS = 1_000;

export interface SlotShareOptions {
  /** Attempts that may be waiting for a prompt answer at the same time (the dispatcher's slots). */
  concurrency: number;
  /** Of those, at most this many to one endpoint that answers. */
  perEndpoint: number;
  /** Called when an attempt gives its slot back without finishing (it became slow). */
  onSlotFreed: () => void;
  /** @default SLOW_ATTEMPT_MS */
  slowAttemptMs?: number;
}

/** The choices of one claim: `admit` takes a slot for a due delivery of that endpoint, or says no. */
export interface ClaimRound {
  admit(endpointId: string): boolean;
  /** No registered endpoint can be admitted any more (so a claim can stop looking). */
  readonly full: boolean;
  /** Registered endpoints that can still be admitted, with how many more each. */
  open(): [endpointId: string, room: number][];
}

interface Running {
  endpointId: string;
  slow: boolean;
  timer: NodeJS.Timeout;
}

/**
 * Fair dispatch across endpoints. An endpoint is struggling while its last attempt failed (no 2xx, no
 * answer) or one of its attempts is slow: it gets one attempt at a time instead of `perEndpoint`, and
 * struggling endpoints together at most half the slots, so the rest always serve endpoints that answer.
 * A slow attempt gives its slot back and waits on beside the slots until its deadline; it still counts
 * against its endpoint, so the connections open at once stay under `perEndpoint` per registered endpoint
 * (the emulator keeps at most 100) plus `concurrency`.
 */
export class SlotShare {
  private readonly running = new Map<string, Running>();
  private readonly struggling = new Set<string>();
  private readonly slowAttemptMs: number;
  private readonly strugglingSlots: number;

  constructor(private readonly options: SlotShareOptions) {
    this.slowAttemptMs = options.slowAttemptMs ?? SLOW_ATTEMPT_MS;
    this.strugglingSlots = Math.max(1, Math.floor(options.concurrency / 2));
  }

  /** Attempts whose POST runs, slow ones included. */
  get size(): number {
    return this.running.size;
  }

  start(deliveryId: string, endpointId: string): void {
    const timer = setTimeout(() => this.becameSlow(deliveryId), this.slowAttemptMs);
    timer.unref();
    this.running.set(deliveryId, { endpointId, slow: false, timer });
  }

  /** The attempt ended: `answered` is a 2xx, which ends its endpoint's struggle. */
  finish(deliveryId: string, answered: boolean): void {
    const run = this.running.get(deliveryId);
    if (!run) return;
    clearTimeout(run.timer);
    this.running.delete(deliveryId);
    if (answered) this.struggling.delete(run.endpointId);
    else this.struggling.add(run.endpointId);
  }

  /** Stops the slow-attempt timers (the dispatcher stopped). */
  clear(): void {
    for (const run of this.running.values()) clearTimeout(run.timer);
    this.running.clear();
  }

  round(registered: ReadonlySet<string>): ClaimRound {
    for (const endpointId of this.struggling) if (!registered.has(endpointId)) this.struggling.delete(endpointId);
    const busy = new Map<string, number>();
    let prompt = 0;
    let strugglingPrompt = 0;
    for (const run of this.running.values()) {
      busy.set(run.endpointId, (busy.get(run.endpointId) ?? 0) + 1);
      if (run.slow) continue;
      prompt++;
      if (this.struggling.has(run.endpointId)) strugglingPrompt++;
    }
    return new Round(
      registered,
      busy,
      this.struggling,
      this.options.concurrency - prompt,
      this.strugglingSlots - strugglingPrompt,
      this.options.perEndpoint,
    );
  }

  private becameSlow(deliveryId: string): void {
    const run = this.running.get(deliveryId);
    if (!run) return;
    this.struggling.add(run.endpointId);
    run.slow = true;
    this.options.onSlotFreed();
  }
}

class Round implements ClaimRound {
  /** Registered endpoints that cannot be admitted now, counted apart from the struggling ones at their limit. */
  private answeringAtLimit = 0;
  private strugglingAtLimit = 0;
  private readonly strugglingRegistered: number;

  constructor(
    private readonly registered: ReadonlySet<string>,
    private readonly busy: Map<string, number>,
    private readonly struggling: ReadonlySet<string>,
    private free: number,
    private strugglingFree: number,
    private readonly perEndpoint: number,
  ) {
    let n = 0;
    for (const endpointId of registered) {
      const isStruggling = struggling.has(endpointId);
      if (isStruggling) n++;
      if ((busy.get(endpointId) ?? 0) >= this.limitOf(isStruggling)) {
        if (isStruggling) this.strugglingAtLimit++;
        else this.answeringAtLimit++;
      }
    }
    this.strugglingRegistered = n;
  }

  get full(): boolean {
    if (this.free <= 0) return true;
    const strugglingBlocked = this.strugglingFree <= 0 ? this.strugglingRegistered : this.strugglingAtLimit;
    return this.answeringAtLimit + strugglingBlocked >= this.registered.size;
  }

  admit(endpointId: string): boolean {
    if (this.free <= 0) return false;
    const isStruggling = this.struggling.has(endpointId);
    if (isStruggling && this.strugglingFree <= 0) return false;
    const limit = this.limitOf(isStruggling);
    const busy = this.busy.get(endpointId) ?? 0;
    if (busy >= limit) return false;
    this.busy.set(endpointId, busy + 1);
    this.free--;
    if (isStruggling) this.strugglingFree--;
    if (busy + 1 >= limit && this.registered.has(endpointId)) {
      if (isStruggling) this.strugglingAtLimit++;
      else this.answeringAtLimit++;
    }
    return true;
  }

  open(): [string, number][] {
    const open: [string, number][] = [];
    if (this.free <= 0) return open;
    for (const endpointId of this.registered) {
      const isStruggling = this.struggling.has(endpointId);
      if (isStruggling && this.strugglingFree <= 0) continue;
      const room = this.limitOf(isStruggling) - (this.busy.get(endpointId) ?? 0);
      if (room > 0) open.push([endpointId, Math.min(room, this.free)]);
    }
    return open;
  }

  private limitOf(isStruggling: boolean): number {
    return isStruggling ? 1 : this.perEndpoint;
  }
}
