import { existsSync, readFileSync } from 'node:fs';
import type TypeScript from 'typescript';

/**
 * The pages' browser modules (browser/*.ts): `npm run build` compiles them with their own tsconfig to
 * dist/console/browser, beside this file's own .js, and the pages load them from there as they are. Run from
 * the sources (tsx, vitest) there is no .js beside the .ts: the module is compiled on its first request and
 * kept, by esbuild (what tsx runs the sources with, a devDependency: a third of a second where loading
 * TypeScript's compiler takes seconds, which a page's first load waited for), or TypeScript where esbuild is
 * missing. Type-checking is the browser tsconfig's work, not this one's.
 */
const BROWSER_DIR = new URL('./browser/', import.meta.url);

/** A module's file name as pages ask for it: lower case, dashes, `.js`. Nothing else is looked up. */
const MODULE_NAME = /^[a-z][a-z-]{0,40}\.js$/;

// Each module once per process (the first request's compile is shared by those that arrive meanwhile).
const modules = new Map<string, Promise<string | undefined>>();

async function compileSource(source: string): Promise<string> {
  try {
    const esbuild = await import('esbuild');
    return (await esbuild.transform(source, { loader: 'ts', format: 'esm', target: 'es2022' })).code;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ERR_MODULE_NOT_FOUND') throw error;
  }
  let ts: typeof TypeScript;
  try {
    ts = (await import('typescript')).default;
  } catch {
    throw new Error("The pages' browser modules are not built: run `npm run build` (or install esbuild)");
  }
  return ts.transpileModule(source, {
    compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ES2022, sourceMap: false },
  }).outputText;
}

/** The JavaScript of browser module `name` (`inspector.js`), or undefined when there is no such module. */
export function browserModule(name: string): Promise<string | undefined> {
  if (!MODULE_NAME.test(name)) return Promise.resolve(undefined);
  let loaded = modules.get(name);
  if (loaded === undefined) {
    loaded = load(name);
    modules.set(name, loaded);
  }
  return loaded;
}

async function load(name: string): Promise<string | undefined> {
  const built = new URL(name, BROWSER_DIR);
  if (existsSync(built)) return readFileSync(built, 'utf8');
  const source = new URL(name.replace(/\.js$/, '.ts'), BROWSER_DIR);
  return existsSync(source) ? compileSource(readFileSync(source, 'utf8')) : undefined;
}
