import type { Span, SpanContext } from './otel-api.js';

/** Deliveries whose receive span this process remembers; past it the oldest is forgotten first. */
const MAX_TRACE_ORIGINS = 10_000;

/**
 * The receive span of each delivery this process took in and has not finished, so that its process span
 * (the worker's, moments later) is a child in the same trace. Kept in memory, not in the row: a delivery
 * run by another process, or after a restart, starts a trace of its own (docs/operations.md).
 */
export class TraceOrigins {
  private readonly origins = new Map<string, SpanContext>();

  remember(deliveryId: string, span: Span): void {
    if (!span.isRecording()) return;
    if (this.origins.size >= MAX_TRACE_ORIGINS) this.origins.delete(this.origins.keys().next().value!);
    this.origins.set(deliveryId, span.spanContext());
  }

  get(deliveryId: string): SpanContext | undefined {
    return this.origins.get(deliveryId);
  }

  forget(deliveryId: string): void {
    this.origins.delete(deliveryId);
  }
}
