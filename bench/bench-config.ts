/** The four servers the issue asks to compare, in one run. */
export const SERVER_KINDS = ['express + receiver', 'bare express', 'node:http + receiver', 'bare node:http'] as const;
export type ServerKind = (typeof SERVER_KINDS)[number];

export const BENCH_SECRET = 'whsec_benchmark_secret_0123456789abcdef';
/** Handlers sleep so that the ack path, not the handler, is what is measured. */
export const HANDLER_SLEEP_MS = 50;
export const CONNECTIONS = 50;
export const BODY_BYTES = 1024;
/** Seconds per measured run; 6 servers x ROUNDS runs (plus a warm-up each) keep `npm run bench` under 2 minutes. */
export const DURATION_SECONDS = Number(process.env.BENCH_SECONDS ?? 6);
export const WARMUP_SECONDS = 2;
/** Servers are measured in turn, round after round, and the median is kept: a shared machine's load drifts. */
export const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
