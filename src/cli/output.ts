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

/**
 * Aligned columns for people. Widths come from the plain text; `paint` colours a padded cell afterwards,
 * so escape codes never skew the alignment.
 */
export function table(
  header: readonly string[],
  rows: readonly (readonly string[])[],
  paint: (column: number, cell: string, padded: string) => string = (_c, _cell, padded) => padded,
): string[] {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const format = (cells: readonly string[], color: (i: number, cell: string, padded: string) => string) =>
    cells
      .map((cell, i) => color(i, cell, i === cells.length - 1 ? cell : cell.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd();
  return [format(header, (_i, _cell, padded) => out.c.bold(padded)), ...rows.map((row) => format(row, paint))];
}

/** `x-service-signature` -> `X-Service-Signature`, as people write headers. */
export function headerCase(name: string): string {
  return name.replace(/(^|-)([a-z])/g, (_m, dash: string, letter: string) => dash + letter.toUpperCase());
}
