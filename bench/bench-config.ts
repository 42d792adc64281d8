/** The four servers the issue asks to compare, in one run. */
export const SERVER_KINDS = ['express + receiver', 'bare express', 'node:http + receiver', 'bare node:http'] as const;
export type ServerKind = (typeof SERVER_KINDS)[number];

export const BENCH_SECRET = 'whsec_benchmark_secret_0123456789abcdef';
/** Handlers sleep so that the ack path, not the handler, is what is measured. */
export const HANDLER_SLEEP_MS = 50;
export const CONNECTIONS = 50;
export const BODY_BYTES = 1024;
/** Seconds per measured run (after a short warm-up); 6 runs keep `npm run bench` under 2 minutes. */
export const DURATION_SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
export const WARMUP_SECONDS = 2;
