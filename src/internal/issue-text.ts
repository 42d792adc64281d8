/** The part of a zod issue the kit's messages use; zod's issues and the kit's own `{ path, message }` details both fit. */
export interface IssueLike {
  readonly path: readonly PropertyKey[];
  readonly message: string;
}

/** How many issues one message names; the rest are in `details` or the log. */
export const ISSUES_NAMED = 5;

/**
 * `where: message` for one issue, the form of every validation message the kit writes (docs/errors.md):
 * `where` is the dotted path (`data.items.0.id`), or `whole` — what was checked, such as "the body" —
 * when the issue is about the value itself.
 */
export function issueText(issue: IssueLike, whole: string): string {
  return `${issue.path.length > 0 ? issue.path.map(String).join('.') : whole}: ${issue.message}`;
}

/** The first `limit` issues, each as issueText writes it, joined by `; `. */
export function issuesText(issues: readonly IssueLike[], whole: string, limit = ISSUES_NAMED): string {
  return issues
    .slice(0, limit)
    .map((issue) => issueText(issue, whole))
    .join('; ');
}
