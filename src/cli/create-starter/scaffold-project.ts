import { copyFileSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { RENAMED_FILES, SKIPPED_NAMES } from './templates-catalog.js';

const EMULATOR = '@convo-kit/emulator'; // what a starter's tests and `npm run dev` run
const MAX_FILES = 500; // a template is a small project; anything bigger means the wrong folder

export interface ScaffoldOptions {
  /** The template folder, e.g. `<kit>/templates/crm-sync`. */
  templateDir: string;
  /** Where the project is written; must not exist or be empty (checked by the caller). */
  targetDir: string;
  /** The npm package name of the new project. */
  projectName: string;
  /** The version range or `file:` path written for `convo-kit` in package.json. */
  kitDependency: string;
  /** The same for the `@convo-kit/emulator` dev dependency (when the template lists it). */
  emulatorDependency: string;
}

/** Relative paths of a template's files as they land in a project (renames applied, skips left out), sorted. */
export function templateFiles(templateDir: string): string[] {
  const files: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (SKIPPED_NAMES.has(entry.name) || entry.name.endsWith('.db')) continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile()) files.push(relative(templateDir, path).split(sep).join('/'));
      if (files.length > MAX_FILES) throw new Error(`template ${templateDir} has more than ${MAX_FILES} files`);
    }
  };
  walk(templateDir);
  return files.sort();
}

/** Where a template file lands in the project: `_gitignore` becomes `.gitignore`. */
export function projectPath(templatePath: string): string {
  const parts = templatePath.split('/');
  const base = parts.pop() ?? '';
  return [...parts, RENAMED_FILES[base] ?? base].join('/');
}

/** Copies the template as it is, then names the package and points its `convo-kit` dependency at this kit. */
export function scaffoldProject(options: ScaffoldOptions): string[] {
  const written: string[] = [];
  for (const file of templateFiles(options.templateDir)) {
    const target = join(options.targetDir, projectPath(file));
    mkdirSync(dirname(target), { recursive: true });
    if (file === 'package.json') {
      writeFileSync(target, packageJson(readFileSync(join(options.templateDir, file), 'utf8'), options));
    } else {
      copyFileSync(join(options.templateDir, file), target);
    }
    written.push(projectPath(file));
  }
  return written.sort();
}

function packageJson(text: string, options: ScaffoldOptions): string {
  const pkg = JSON.parse(text) as Record<string, unknown> & {
    dependencies?: Record<string, string>;
    devDependencies?: Record<string, string>;
  };
  const rest = Object.fromEntries(Object.entries(pkg).filter(([key]) => key !== 'name'));
  const devDependencies = pkg.devDependencies && { ...pkg.devDependencies };
  if (devDependencies && EMULATOR in devDependencies) devDependencies[EMULATOR] = options.emulatorDependency;
  const result = {
    name: options.projectName,
    ...rest,
    dependencies: { ...pkg.dependencies, 'convo-kit': options.kitDependency },
    ...(devDependencies && { devDependencies }),
  };
  return `${JSON.stringify(result, null, 2)}\n`;
}
