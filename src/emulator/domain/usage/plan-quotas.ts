import type { Plan } from '../../../api/index.js';

export interface PlanQuotas {
  /** Journeys the workspace may have. */
  journeys: number | null;
  /** Enrollments (triggers, batch rows, business events) per calendar month (GET /v1/trigger/limits). */
  enrollments_per_month: number | null;
  messages_per_month: number | null;
  ai_replies_per_month: number | null;
  webhooks: number | null;
}

/**
 * The emulator's quotas per plan tier. The spec does not show numeric quotas ("not shown"), so these
 * are the emulator's own, kept in this one table; null means unlimited.
 */
export const PLAN_QUOTAS: Readonly<Record<Plan, PlanQuotas>> = {
  free: { journeys: 1, enrollments_per_month: 100, messages_per_month: 1_000, ai_replies_per_month: 100, webhooks: 1 },
  creator: {
    journeys: 3,
    enrollments_per_month: 500,
    messages_per_month: 5_000,
    ai_replies_per_month: 500,
    webhooks: 2,
  },
  dev_hobby: {
    journeys: 5,
    enrollments_per_month: 1_000,
    messages_per_month: 10_000,
    ai_replies_per_month: 1_000,
    webhooks: 5,
  },
  starter: {
    journeys: 5,
    enrollments_per_month: 1_000,
    messages_per_month: 10_000,
    ai_replies_per_month: 1_000,
    webhooks: 5,
  },
  trial: {
    journeys: 10,
    enrollments_per_month: 1_000,
    messages_per_month: 10_000,
    ai_replies_per_month: 1_000,
    webhooks: 5,
  },
  dev_pro: {
    journeys: 50,
    enrollments_per_month: 10_000,
    messages_per_month: 100_000,
    ai_replies_per_month: 20_000,
    webhooks: 20,
  },
  growth: {
    journeys: 50,
    enrollments_per_month: 10_000,
    messages_per_month: 100_000,
    ai_replies_per_month: 20_000,
    webhooks: 20,
  },
  dev_scale: {
    journeys: 200,
    enrollments_per_month: 100_000,
    messages_per_month: 1_000_000,
    ai_replies_per_month: 200_000,
    webhooks: 50,
  },
  pro: {
    journeys: 200,
    enrollments_per_month: 100_000,
    messages_per_month: 1_000_000,
    ai_replies_per_month: 200_000,
    webhooks: 50,
  },
  enterprise: {
    journeys: null,
    enrollments_per_month: null,
    messages_per_month: null,
    ai_replies_per_month: null,
    webhooks: null,
  },
};
