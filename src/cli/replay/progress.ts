/** A progress bar on stderr for people watching a long replay; cli-progress is loaded only then. */
export async function startProgress(total: number): Promise<{ increment(): void; stop(): void }> {
  const { default: cliProgress } = await import('cli-progress');
  const bar = new cliProgress.SingleBar(
    {
      format: 'replaying [{bar}] {value}/{total}  eta {eta_formatted}',
      stream: process.stderr,
      hideCursor: true,
      clearOnComplete: true,
    },
    cliProgress.Presets.shades_classic,
  );
  bar.start(total, 0);
  return { increment: () => bar.increment(), stop: () => bar.stop() };
}
