/** The signals a terminal (Ctrl-C) and a process manager (Kubernetes, systemd, Docker) stop a process with. */
const STOP_SIGNALS: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM'];

export interface CloseOnSignalsOptions {
  /** @default ['SIGINT', 'SIGTERM'] */
  signals?: readonly NodeJS.Signals[];
  /** Told of an error `close` threw, before the exit with code 1. @default console.error */
  onError?: (error: unknown) => void;
}

/**
 * On the first of `signals`, runs `close` once and exits (0, or 1 when it threw). A second signal while
 * closing is ignored: npm, tsx and node may each pass the same Ctrl-C on, and a process manager sends
 * SIGKILL itself once its grace period ends. Answers a function that stops listening.
 * @example
 * const served = await serve(receiver, { port: 3000 });
 * closeOnSignals(() => served.close());
 */
export function closeOnSignals(close: () => Promise<unknown>, options: CloseOnSignalsOptions = {}): () => void {
  const signals = options.signals ?? STOP_SIGNALS;
  let closing = false;
  const onSignal = () => {
    if (closing) return;
    closing = true;
    close().then(
      () => process.exit(0),
      (error: unknown) => {
        (options.onError ?? console.error)(error);
        process.exit(1);
      },
    );
  };
  for (const signal of signals) process.on(signal, onSignal);
  return () => {
    for (const signal of signals) process.off(signal, onSignal);
  };
}
