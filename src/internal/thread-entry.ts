/**
 * The entry of a worker thread whose module is `name` (without extension) beside the module at `here`
 * (its `import.meta.url`): the built `.js`, or, running from TypeScript sources (tests, tsx), the `.ts`
 * through tsx's loader, which a worker does not inherit. Pass both fields to `new Worker(entry, { eval })`.
 */
export function threadEntry(here: string, name: string): { entry: string | URL; eval: boolean } {
  if (!here.endsWith('.ts')) return { entry: new URL(`./${name}.js`, here), eval: false };
  const tsx = JSON.stringify(import.meta.resolve('tsx/esm/api'));
  const thread = JSON.stringify(new URL(`./${name}.ts`, here).href);
  return { entry: `import(${tsx}).then((api) => { api.register(); return import(${thread}); });`, eval: true };
}
