/** Redraws at most this often: a replay of thousands of rows would otherwise write a line per row. */
const REDRAW_EVERY_MS = 100;
const BAR_WIDTH = 30;

/**
 * A progress line on stderr for people watching a long replay (stderr is a terminal: the caller checks),
 * redrawn in place and cleared when done. Written here rather than with a progress-bar package, so the
 * runtime install carries none (docs/packages.md).
 */
export function startProgress(total: number): { increment(): void; stop(): void } {
  const started = Date.now();
  let done = 0;
  let drawnAt = 0;
  const draw = () => {
    drawnAt = Date.now();
    const filled = total === 0 ? BAR_WIDTH : Math.round((done / total) * BAR_WIDTH);
    const elapsedS = (drawnAt - started) / 1000;
    const eta = done === 0 ? '?' : `${Math.ceil((elapsedS / done) * (total - done))}s`;
    process.stderr.write(
      `\rreplaying [${'█'.repeat(filled)}${'░'.repeat(BAR_WIDTH - filled)}] ${done}/${total}  eta ${eta}`,
    );
  };
  process.stderr.write('\x1b[?25l'); // hide the cursor while the line redraws
  draw();
  return {
    increment() {
      done += 1;
      if (done === total || Date.now() - drawnAt >= REDRAW_EVERY_MS) draw();
    },
    stop() {
      process.stderr.write('\r\x1b[2K\x1b[?25h'); // clear the line, show the cursor again
    },
  };
}
