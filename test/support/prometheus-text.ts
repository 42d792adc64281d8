/** One sample line of the Prometheus text exposition format. */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

const NAME = '[a-zA-Z_:][a-zA-Z0-9_:]*';
const SAMPLE = new RegExp(`^(${NAME})(?:\\{(.*)\\})? (\\S+)(?: -?\\d+)?$`);
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"(?:,|$)/y;
const VALUE = /^(?:[+-]?(?:\d+\.?\d*(?:[eE][+-]?\d+)?|\.\d+)|[+-]?Inf|NaN)$/;

/**
 * Parses Prometheus text format 0.0.4 strictly: every line is a HELP, a TYPE, a comment or a sample, each
 * sample belongs to a family whose TYPE came first, and labels and values are well formed. Throws naming
 * the first line that is not.
 */
export function parsePrometheusText(text: string): Sample[] {
  const types = new Map<string, string>();
  const samples: Sample[] = [];
  for (const [index, line] of text.split('\n').entries()) {
    const fail = (why: string) => new Error(`line ${index + 1} ${why}: ${line}`);
    if (line === '') continue;
    const type = new RegExp(`^# TYPE (${NAME}) (counter|gauge|histogram|summary|untyped)$`).exec(line);
    if (type) {
      if (types.has(type[1]!)) throw fail('repeats a TYPE');
      types.set(type[1]!, type[2]!);
      continue;
    }
    if (line.startsWith('#')) continue;
    const sample = SAMPLE.exec(line);
    if (!sample) throw fail('is not a sample');
    const [, name, rawLabels, rawValue] = sample as unknown as [string, string, string | undefined, string];
    if (!VALUE.test(rawValue)) throw fail('has no number for its value');
    const family = name.replace(/_(bucket|sum|count|total)$/, '');
    if (!types.has(name) && !types.has(family)) throw fail('has no TYPE line before it');
    const labels: Record<string, string> = {};
    if (rawLabels) {
      LABEL.lastIndex = 0;
      while (LABEL.lastIndex < rawLabels.length) {
        const label = LABEL.exec(rawLabels);
        if (!label) throw fail('has a malformed label');
        labels[label[1]!] = label[2]!.replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c));
      }
    }
    samples.push({ name, labels, value: Number(rawValue) });
  }
  return samples;
}
