import type { SafeHtml } from '../html.js';
import type { RowAction, RowConditions } from './row-action.js';

/**
 * `label` heads the column; `path` is a dotted path into each item (`a|b` falls back to b, `=text` is literal text).
 * A `status` column is coloured by its value; `delivered`, when given, colours the cell as delivered when that path
 * has a value (an attempt's `delivered_at`) and as failed when not.
 */
export type Column = readonly [label: string, path: string, delivered?: string];

/** A table of the console, filled by its script from one list route of the contract (src/api/endpoints). */
export interface ConsolePanel {
  id: string;
  title: string;
  /** The list route, relative to the emulator: `/v1/tickets?limit=20`. A detail panel's has `:id`. */
  list: string;
  columns: readonly Column[];
  /** What the empty table says: how one is added, from this page or the API, in one line. @default 'Nothing yet.' */
  empty?: string;
  /** The field naming each item. @default 'id' */
  key?: string;
  /** Where the items are in the answer. @default 'data' (a page) */
  items?: string;
  /** The buttons of each row. @default none */
  actions?: readonly RowAction[];
  /** A select elsewhere on the page that offers this panel's items. @default none */
  choices?: PanelChoices;
  /** A form shown above the table: inputs its buttons read, or (`submit`) a request of its own. @default none */
  form?: SafeHtml;
  /** What submitting `form` does, as a row button would (`{of}` is the row a detail panel was opened for). @default nothing */
  submit?: RowAction;
  /** A setting of the panel's answer itself, not of a row, with its on/off button. @default none */
  toggle?: PanelToggle;
  /**
   * Lists `list` (its `:id`) for each of the first items of another panel and shows them in one table (the deliveries
   * of each webhook endpoint); each item carries the one it was listed for as `of`. @default one list route
   */
  across?: { panel: string; first: number };
}

/** A boolean of a panel's answer switched by one button (the workspace's comment AI): PATCH `path` with the other state. */
export interface PanelToggle {
  /** Heads the state: `AI replies to comments (workspace-wide)`. */
  label: string;
  field: string;
  path: string;
  /** A muted line beside the button. @default none */
  note?: string;
}

/** The options of a select filled from a panel's items (the conversation an automation runs on). */
interface PanelChoices {
  /** The select's element id. */
  select: string;
  /** The items offered. @default every item */
  when?: RowConditions;
  /** The option's value: a column path. */
  value: string;
  /** The option's text, its `{…}` column paths of the item (see RowAction). */
  label: string;
  /** The one option when no item is offered. */
  none: string;
}

/** A panel over what belongs to one row of another panel (a group's knowledge), shown once its button is clicked. */
export interface ConsoleDetailPanel extends ConsolePanel {
  /** The panel whose rows get the button. */
  of: string;
  /** The row's button that opens it. */
  button: string;
}
