import pc from 'picocolors';

type Colors = ReturnType<typeof pc.createColors>;

/** Colour only when the stream is a terminal and NO_COLOR is unset, so piped output stays plain text. */
function colorsFor(stream: NodeJS.WriteStream): Colors {
  return pc.createColors(Boolean(stream.isTTY) && !process.env.NO_COLOR);
}

export const out = {
  c: colorsFor(process.stdout),
  line(text = ''): void {
    process.stdout.write(text + '\n');
  },
  json(value: unknown): void {
    process.stdout.write(JSON.stringify(value, null, 2) + '\n');
  },
};

export const err = {
  c: colorsFor(process.stderr),
  line(text = ''): void {
    process.stderr.write(text + '\n');
  },
  warn(text: string): void {
    process.stderr.write(err.c.yellow('warning: ') + text + '\n');
  },
};

/** Is a person watching? Progress bars and hints only then. */
export function isInteractive(): boolean {
  return Boolean(process.stderr.isTTY);
}

/** Pads plain cells into aligned columns (widths computed on the uncoloured text). */
export function table(header: readonly string[], rows: readonly (readonly string[])[]): string[] {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const format = (cells: readonly string[]) =>
    cells.map((cell, i) => (i === cells.length - 1 ? cell : cell.padEnd(widths[i]!))).join('  ').trimEnd();
  return [out.c.bold(format(header)), ...rows.map(format)];
}
