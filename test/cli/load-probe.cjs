/* global require */
// Preloaded into a CLI child: on exit, names the heavy packages that were loaded, so a test can check
// that light commands stay light (the CLI imports what a command needs only when it runs).
const HEAVY = ['express', 'better-sqlite3', 'pino', 'p-queue'];
process.on('exit', () => {
  const loaded = HEAVY.filter((name) =>
    Object.keys(require.cache).some((file) => file.includes(`/node_modules/${name}/`)),
  );
  process.stderr.write(`[load-probe] ${JSON.stringify(loaded)}\n`);
});
