import { fileURLToPath } from 'node:url';

/**
 * The module `name` (without extension) beside the module at `here` (its `import.meta.url`), which runs on
 * its own (a worker thread's or a child process's entry): the built `.js`, or, running from TypeScript
 * sources (tests, tsx), the `.ts`, which needs tsx's loader, and neither a worker nor a child inherits it.
 * The one place that knows the difference between sources and build.
 */
function siblingModule(here: string, name: string): { url: URL; fromSources: boolean } {
  const fromSources = here.endsWith('.ts');
  return { url: new URL(`./${name}.${fromSources ? 'ts' : 'js'}`, here), fromSources };
}

/** The entry of a worker thread whose module is `name` beside `here`: pass both fields to `new Worker(entry, { eval })`. */
export function threadEntry(here: string, name: string): { entry: string | URL; eval: boolean } {
  const { url, fromSources } = siblingModule(here, name);
  if (!fromSources) return { entry: url, eval: false };
  const tsx = JSON.stringify(import.meta.resolve('tsx/esm/api'));
  return {
    entry: `import(${tsx}).then((api) => { api.register(); return import(${JSON.stringify(url.href)}); });`,
    eval: true,
  };
}

/**
 * The entry of a child process whose module is `name` beside `here`: the file to fork, the Node flags it
 * needs to load it (tsx's loader from sources, resolved from here, so it is found whatever the child's working
 * directory; to be added to the child's own flags), and whether it runs from sources.
 */
export function processEntry(here: string, name: string): { path: string; execArgv: string[]; fromSources: boolean } {
  const { url, fromSources } = siblingModule(here, name);
  return {
    path: fileURLToPath(url),
    execArgv: fromSources ? ['--import', import.meta.resolve('tsx')] : [],
    fromSources,
  };
}
