import { otelApi, SCOPE, SCOPE_VERSION } from './otel-api.js';

/** How a step ended: run and journaled, answered from the journal without running, or failed. */
export type StepOutcome = 'done' | 'journaled' | 'failed';

export interface StepSpans {
  /**
   * Runs `body` (synchronously up to its first await, so step names are claimed in call order) under a span
   * for the step, a child of the attempt's process span; `body` says how the step ended through `outcome`.
   */
  trace<T>(
    name: string,
    kind: 'step' | 'transaction',
    body: (outcome: (o: StepOutcome) => void) => Promise<T>,
  ): Promise<T>;
}

let spans: StepSpans | null | undefined;

/** Spans for ctx.step, ctx.transaction and ctx.client calls, or null without `@opentelemetry/api`. */
export function stepSpans(): StepSpans | null {
  if (spans !== undefined) return spans;
  const api = otelApi();
  if (!api) return (spans = null);
  // A proxy tracer: an SDK registered after this first step still gets the spans.
  const tracer = api.trace.getTracer(SCOPE, SCOPE_VERSION);
  spans = {
    async trace(name, kind, body) {
      const span = tracer.startSpan(`${kind} ${name}`, {
        kind: api.SpanKind.INTERNAL,
        attributes: { 'convo_kit.step.name': name, 'convo_kit.step.kind': kind },
      });
      let outcome: StepOutcome = 'done';
      try {
        return await api.context.with(api.trace.setSpan(api.context.active(), span), () => body((o) => (outcome = o)));
      } catch (error) {
        outcome = 'failed';
        span.recordException(error);
        span.setStatus({ code: api.SpanStatusCode.ERROR });
        throw error;
      } finally {
        span.setAttribute('convo_kit.step.outcome', outcome);
        span.end();
      }
    },
  };
  return spans;
}
