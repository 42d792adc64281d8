/** One row per starter template: `name` is the `--template` value and the folder under `templates/`. */
export interface TemplateEntry {
  readonly name: string;
  readonly title: string;
  readonly description: string;
}

/** The catalog of templates: adding a folder under `templates/` and a row here is all it takes. */
export const TEMPLATES = [
  {
    name: 'crm-sync',
    title: 'CRM sync',
    description:
      'A local CRM (SQLite) kept in sync from contact, conversation and message events; edits go back through the API.',
  },
  {
    name: 'ticket-routing',
    title: 'Ticket routing',
    description:
      'Routes tickets by rules (kind, priority, channel, keywords, business hours) with load limits and an SLA watch.',
  },
  {
    name: 'custom-reply',
    title: 'Custom reply endpoint',
    description:
      "Your endpoint for the service's AI replies (convo-kit/reply), answering from a small FAQ file; a person takes over otherwise.",
  },
] as const satisfies readonly TemplateEntry[];

export type TemplateName = (typeof TEMPLATES)[number]['name'];

/**
 * Files stored under another name in `templates/`: npm drops `.gitignore` from published packages,
 * so the templates carry `_gitignore` and the scaffolder renames it.
 */
export const RENAMED_FILES: Readonly<Record<string, string>> = { _gitignore: '.gitignore' };

/** What is never copied out of a template folder (local installs, builds, databases, real secrets). */
export const SKIPPED_NAMES: ReadonlySet<string> = new Set([
  'node_modules',
  'dist',
  'package-lock.json',
  '.env',
  'data',
]);

export function findTemplate(name: string): TemplateEntry | undefined {
  return TEMPLATES.find((entry) => entry.name === name);
}
