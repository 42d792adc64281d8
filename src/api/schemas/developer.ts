import { z } from 'zod';
import { Plan } from '../plans.js';
import { Scope } from '../scopes.js';
import { KeyKind } from './api-key.js';
import { Fault } from './trigger.js';

const count = z.number().int().min(0);

/** GET /v1/developer/limits: the calling key's rate limit and the plan's quotas (null = unlimited). */
export const DeveloperLimits = z.looseObject({
  plan: Plan,
  rate_limit_per_minute: count,
  window_seconds: count,
  read_only: z.boolean(),
  quotas: z.looseObject({
    journeys: count.nullable(),
    enrollments_per_month: count.nullable(),
    messages_per_month: count.nullable(),
    ai_replies_per_month: count.nullable(),
    webhooks: count.nullable(),
  }),
});
export type DeveloperLimits = z.output<typeof DeveloperLimits>;

export const Capabilities = z.looseObject({
  key: z.looseObject({ id: z.string(), kind: KeyKind, scopes: z.array(Scope) }),
  plan: Plan,
  /** Feature name -> available to this key on this plan. */
  features: z.record(z.string(), z.boolean()),
  limits: DeveloperLimits,
  /**
   * What automations do here (the emulator's answer; docs/automations.md): what starts each trigger kind,
   * what a run does, its bounds, and what is not emulated.
   */
  automations: z
    .looseObject({
      triggers: z.record(z.string(), z.string()),
      actions: z.array(z.string()),
      limits: z.record(z.string(), z.number()),
      not_emulated: z.array(z.string()),
    })
    .optional(),
  /**
   * The emulator's own: how its whole state is saved and loaded (docs/emulator.md, "Saving and loading state"),
   * what a state document holds and what it leaves out. The service has no such thing.
   */
  emulator_state: z
    .looseObject({
      path: z.string(),
      methods: z.array(z.string()),
      format_version: z.number().int(),
      saved: z.array(z.string()),
      not_saved: z.array(z.string()),
    })
    .optional(),
});
export type Capabilities = z.output<typeof Capabilities>;

export const Onboarding = z.looseObject({
  steps: z.array(z.looseObject({ id: z.string(), title: z.string(), done: z.boolean(), doc_url: z.string() })),
  completed: count,
  total: count,
});
export type Onboarding = z.output<typeof Onboarding>;

/** The error explanation response (spec). */
export const ErrorExplanation = z.looseObject({
  code: z.string(),
  what_happened: z.string(),
  fault: Fault,
  next_step: z.string(),
  retryable: z.boolean(),
});
export type ErrorExplanation = z.output<typeof ErrorExplanation>;

export const ErrorCodeParams = z.object({ code: z.string().min(1).max(64) });
