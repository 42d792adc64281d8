import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { projectPath, templateFiles } from '../../src/cli/create-starter/scaffold-project.js';
import { TEMPLATES } from '../../src/cli/create-starter/templates-catalog.js';
import { escapeRegExp } from '../../src/internal/escape-reg-exp.js';
import { REPO_ROOT } from '../support/run-command.js';
import { createStarter } from './run-create-starter.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'create-starter-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function listFiles(root: string, prefix = ''): string[] {
  return readdirSync(join(root, prefix), { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? listFiles(root, join(prefix, entry.name)) : [join(prefix, entry.name).split('\\').join('/')],
  );
}

describe('create-starter', () => {
  for (const template of TEMPLATES) {
    it(`writes the ${template.name} template as it is, with its package named and pointed at this checkout`, async () => {
      const target = join(dir, 'My App');
      const result = await createStarter([target, '--template', template.name, '--no-install']);
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
      const templateDir = join(REPO_ROOT, 'templates', template.name);
      const expected = templateFiles(templateDir).map(projectPath).sort();
      expect(listFiles(target).sort()).toEqual(expected);
      expect(expected).toEqual(expect.arrayContaining(['.gitignore', '.env.example', 'README.md', 'package.json']));
      for (const file of templateFiles(templateDir).filter((f) => f !== 'package.json')) {
        expect(readFileSync(join(target, projectPath(file)), 'utf8'), file).toBe(
          readFileSync(join(templateDir, file), 'utf8'),
        );
      }
      const pkg = JSON.parse(readFileSync(join(target, 'package.json'), 'utf8')) as {
        name: string;
        dependencies: Record<string, string>;
      };
      expect(pkg.name).toBe('my-app');
      expect(pkg.dependencies['convo-kit']).toBe(`file:${REPO_ROOT.replace(/\/$/, '')}`);
      expect(result.stdout).toContain('Next steps:');
      // The absolute path, shorter here than the relative one from the checkout (../../../tmp/…).
      expect(result.stdout).toContain(`\n  cd ${JSON.stringify(target)}\n`);
      // The project runs the checkout's compiled bin: an unbuilt checkout (here the working directory) is built first.
      const unbuilt = !existsSync(join(REPO_ROOT, 'dist', 'cli', 'convo-kit.js'));
      expect(/\n {2}npm run build {3}# the convo-kit checkout it depends on is not built\n/.test(result.stdout)).toBe(
        unbuilt,
      );
      expect(result.stdout).toContain('npm install');
      expect(result.stdout).toContain('npm test');
    });
  }

  it('refuses a directory that is not empty, and leaves it as it was', async () => {
    writeFileSync(join(dir, 'notes.txt'), 'keep me');
    const result = await createStarter([dir, '--template', 'crm-sync', '--no-install']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('is not empty (notes.txt)');
    expect(readdirSync(dir)).toEqual(['notes.txt']);
  });

  it('refuses a path that is a file', async () => {
    const file = join(dir, 'file');
    writeFileSync(file, '');
    const result = await createStarter([file, '--no-install']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('exists and is not a directory');
  });

  it('refuses an unknown template and lists the real ones', async () => {
    const result = await createStarter([join(dir, 'app'), '--template', 'crm', '--no-install']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('unknown template "crm"');
    expect(result.stderr).toContain(TEMPLATES.map((t) => t.name).join(', '));
    expect(readdirSync(dir)).toEqual([]);
  });

  it('--help says what each template is, the default, and shows examples', async () => {
    const result = await createStarter(['--help']);
    expect(result.code).toBe(0);
    expect(result.stdout.replace(/\s+/g, ' ')).toContain(`(asked on a terminal, else ${TEMPLATES[0].name})`);
    for (const template of TEMPLATES)
      expect(result.stdout).toMatch(new RegExp(`\\n  ${template.name} +${escapeRegExp(template.description)}\\n`));
    expect(result.stdout).toMatch(/\nExamples:\n {2}create-starter my-app --template crm-sync\n/);
  });

  it('refuses an unknown flag', async () => {
    const result = await createStarter([join(dir, 'app'), '--templat', 'crm-sync']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("unknown option '--templat'");
    expect(readdirSync(dir)).toEqual([]);
  });

  it('without a TTY, asks for nothing and says the directory is missing', async () => {
    const result = await createStarter(['--no-install']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('missing the project directory');
    // The usage line offers every template, as --help does.
    expect(result.stderr).toContain(`[--template ${TEMPLATES.map((t) => t.name).join('|')}]`);
  });

  it('writes into an existing empty directory', async () => {
    const target = join(dir, 'empty');
    mkdirSync(target);
    const result = await createStarter([target, '--template', 'ticket-routing', '--no-install']);
    expect(result.code).toBe(0);
    expect(readdirSync(target)).toContain('routing-rules.json');
  });

  // util-linux `script` gives the CLI a real terminal, so this is the path a person at a keyboard takes.
  const hasScript = spawnSync('script', ['--version']).status === 0;
  it.skipIf(!hasScript)(
    'on a terminal, asks for the directory, template and install, then writes the project',
    async () => {
      const target = join(dir, 'prompted');
      const answers: [RegExp, string][] = [
        [/Project directory/, `${target}\r`],
        [/Template/, '\x1b[B\r'], // arrow down to the second template
        [/Run npm install now\?/, 'n\r'],
      ];
      const child = spawn(
        'script',
        ['-q', '-e', '-c', 'node --import tsx src/cli/create-starter/index.ts', '/dev/null'],
        { cwd: REPO_ROOT, stdio: ['pipe', 'pipe', 'pipe'] },
      );
      let screen = '';
      child.stdout.on('data', (chunk: Buffer) => {
        screen += chunk.toString();
        if (answers.length > 0 && answers[0][0].test(screen)) child.stdin.write(answers.shift()![1]);
      });
      const timer = setTimeout(() => child.kill('SIGKILL'), 25_000);
      const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
      clearTimeout(timer);
      expect(code, screen).toBe(0);
      expect(answers).toEqual([]);
      expect(screen).toContain('from the ticket-routing template');
      expect(readdirSync(target)).toContain('routing-rules.json');
      expect(existsSync(join(target, 'node_modules'))).toBe(false);
    },
  );
});
