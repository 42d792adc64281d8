import { execFile } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openapi } from '../../src/api/index.js';
import { openapiText } from '../../src/api/openapi/openapi-text.js';

/**
 * `redocly lint` (@redocly/cli), as a user runs it on the document `convo-kit openapi --out openapi.json`
 * writes, with the project's redocly.yaml (the recommended rules) and its .redocly.lint-ignore.yaml beside
 * it: no error and no warning. The ignore file names one pointer, the spec's own pair of paths; that it is
 * only that one is checked below by linting without it.
 */
const REDOCLY = resolve('node_modules/@redocly/cli/bin/cli.js');
/** The one problem .redocly.lint-ignore.yaml explains: two of the spec's own paths match one URL with different methods. */
const IGNORED = 'warn no-ambiguous-paths #/paths/~1v1~1channels~1groups~1{group_id}';

interface LintReport {
  totals: { errors: number; warnings: number };
  problems: { ruleId: string; severity: string; location: { pointer: string }[] }[];
}

let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'convo-kit-redocly-'));
  copyFileSync(resolve('redocly.yaml'), join(dir, 'redocly.yaml'));
});
afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function redoclyLint(
  document: unknown,
  { ignoreFile = true } = {},
): Promise<{ report: LintReport; problems: string[] }> {
  const file = join(dir, 'openapi.json');
  writeFileSync(file, openapiText(document as never));
  const ignore = join(dir, '.redocly.lint-ignore.yaml');
  if (ignoreFile) copyFileSync(resolve('.redocly.lint-ignore.yaml'), ignore);
  else rmSync(ignore, { force: true });
  // Exit code 1 means errors; the JSON report says which, so it is read either way.
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [REDOCLY, 'lint', file, '--config', join(dir, 'redocly.yaml'), '--format', 'json'],
    {
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
      maxBuffer: 20 * 1024 * 1024,
    },
  ).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? '' }));
  const report = JSON.parse(stdout) as LintReport;
  const problems = report.problems.map((p) => `${p.severity} ${p.ruleId} ${p.location[0]?.pointer ?? ''}`).sort();
  return { report, problems };
}

describe('redocly lint, with redocly.yaml', () => {
  it('finds no error and no warning in the document', async () => {
    const { report, problems } = await redoclyLint(openapi());
    expect(problems).toEqual([]);
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
  }, 120_000);

  it('ignores only the one pair of paths the ignore file names', async () => {
    const { problems } = await redoclyLint(openapi(), { ignoreFile: false });
    expect(problems).toEqual([IGNORED]);
  }, 120_000);

  it('reports a broken document as errors (the check can fail)', async () => {
    const broken = structuredClone(openapi());
    delete (broken.paths['/v1/tickets']!.get as Record<string, unknown>).description;
    const { report, problems } = await redoclyLint(broken);
    expect(problems).toContain('error operation-description #/paths/~1v1~1tickets/get/description');
    expect(report.totals.errors).toBeGreaterThan(0);
  }, 120_000);
});
