/** Resolves on the first Ctrl-C (or SIGTERM), for long-running commands to close gracefully; a second Ctrl-C exits at once. */
export function interrupted(): Promise<NodeJS.Signals> {
  return new Promise((done) => {
    const first = (signal: NodeJS.Signals) => {
      process.once('SIGINT', () => process.exit(130));
      done(signal);
    };
    process.once('SIGINT', first);
    process.once('SIGTERM', first);
  });
}
