import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Command, CommanderError } from 'commander';
import { isInstalled, type OptionalPackage } from '../../internal/optional-package.js';
import { CliError, EXIT_CODES } from '../cli-error.js';
import { nextSteps } from './next-steps.js';
import { kitPackage } from './package-root.js';
import { scaffoldProject } from './scaffold-project.js';
import { assertWritableTarget, packageNameFor } from './target-directory.js';
import { findTemplate, TEMPLATES } from './templates-catalog.js';

interface Answers {
  dir: string;
  template: string;
  install: boolean;
}

/** The prompt library: `npm create convo-kit` brings it; convo-kit alone answers from the flags (docs/packages.md). */
export const PROMPTS_PACKAGE: OptionalPackage = {
  name: '@inquirer/prompts',
  neededBy: "create-starter's questions",
  install: 'npm create convo-kit@latest',
};

const TEMPLATE_NAME_LIST = TEMPLATES.map((t) => t.name);
const TEMPLATE_NAMES = TEMPLATE_NAME_LIST.join(', ');
/** What each template is (the catalog's own words), and examples, as every convo-kit command's --help has. */
const HELP_AFTER = [
  '',
  'Templates:',
  ...TEMPLATES.map((t) => `  ${t.name.padEnd(16)}${t.description}`),
  '',
  'Examples:',
  '  create-starter my-app --template crm-sync',
  '  create-starter ./tickets --template ticket-routing --no-install',
].join('\n');

/** Runs `create-starter` with the given arguments (without `node` and the script); resolves to the exit code. */
export async function runCreateStarter(
  argv: string[],
  interactive = Boolean(process.stdin.isTTY && process.stdout.isTTY),
): Promise<number> {
  const program = new Command('create-starter')
    .description('Create a convo-kit project from a template.')
    .argument('[dir]', 'directory to create (must be new or empty)')
    .option('-t, --template <name>', `template: ${TEMPLATE_NAMES} (asked on a terminal, else ${TEMPLATES[0].name})`)
    .option('--no-install', 'do not run npm install')
    .addHelpText('after', HELP_AFTER)
    .exitOverride()
    .showHelpAfterError('(add --help for usage)');
  try {
    program.parse(argv, { from: 'user' });
    const given = {
      dir: program.args[0],
      template: program.opts<{ template?: string }>().template,
      install: program.getOptionValueSource('install') === 'cli' ? false : undefined,
    };
    const answers = interactive && isInstalled(PROMPTS_PACKAGE) ? await ask(given) : fromFlags(given);
    return await create(answers);
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? EXIT_CODES.OK : EXIT_CODES.USAGE;
    if (error instanceof CliError) {
      console.error(`error: ${error.message}`);
      if (error.hint) console.error(error.hint);
      return error.exitCode;
    }
    throw error;
  }
}

type Given = { dir: string | undefined; template: string | undefined; install: boolean | undefined };

function fromFlags(given: Given): Answers {
  if (!given.dir)
    throw new CliError('USAGE', 'missing the project directory', {
      hint:
        `Usage: create-starter <dir> [--template ${TEMPLATE_NAME_LIST.join('|')}] [--no-install]\n` +
        `(${PROMPTS_PACKAGE.install} asks for each of them instead)`,
    });
  return { dir: given.dir, template: given.template ?? TEMPLATES[0].name, install: given.install ?? true };
}

/** Prompts only for what the flags did not say; loaded lazily so scripts never pay for the prompt library. */
async function ask(given: Given): Promise<Answers> {
  const { input, select, confirm } = await import('@inquirer/prompts');
  const dir =
    given.dir ??
    (await input({
      message: 'Project directory',
      default: 'my-convo-app',
      validate: (v) => v.trim().length > 0 || 'A name is needed',
    }));
  const template =
    given.template ??
    (await select({
      message: 'Template',
      choices: TEMPLATES.map((t) => ({ name: `${t.title}: ${t.description}`, value: t.name })),
    }));
  const install = given.install ?? (await confirm({ message: 'Run npm install now?', default: true }));
  return { dir: dir.trim(), template, install };
}

async function create(answers: Answers): Promise<number> {
  const template = findTemplate(answers.template);
  if (!template) {
    throw new CliError('USAGE', `unknown template "${answers.template}"`, { hint: `Choose one of: ${TEMPLATE_NAMES}` });
  }
  const targetDir = resolve(answers.dir);
  assertWritableTarget(targetDir);
  const kit = kitPackage();
  const files = scaffoldProject({
    templateDir: join(kit.templatesDir, template.name),
    targetDir,
    projectName: packageNameFor(targetDir),
    kitDependency: kit.dependency,
    emulatorDependency: kit.emulatorDependency,
  });
  const source = kit.dependency.startsWith('file:') ? ` from ${kit.dependency}` : '';
  console.log(
    `Created ${targetDir} from the ${template.name} template (${files.length} files; convo-kit ${kit.version}${source}).`,
  );
  if (answers.install) {
    const code = await npmInstall(targetDir);
    if (code !== 0)
      throw new CliError('FAILED', `npm install failed with exit code ${code}`, {
        hint: `The files are written; run npm install in ${targetDir} to retry.`,
      });
  }
  console.log('\nNext steps:');
  // A checkout's bin runs dist/cli/convo-kit.js (bin/convo-kit.js), which only `npm run build` writes.
  const unbuiltKit =
    kit.dependency === `file:${kit.root}` && !existsSync(join(kit.root, 'dist', 'cli', 'convo-kit.js'))
      ? kit.root
      : undefined;
  for (const step of nextSteps(targetDir, answers.install, process.cwd(), unbuiltKit)) console.log(`  ${step}`);
  return EXIT_CODES.OK;
}

function npmInstall(cwd: string): Promise<number> {
  return new Promise((done, fail) => {
    const child = spawn(process.platform === 'win32' ? 'npm.cmd' : 'npm', ['install'], { cwd, stdio: 'inherit' });
    child.once('error', fail);
    child.once('exit', (code) => done(code ?? 1));
  });
}
