/**
 * The console's panels as its script gets them (emulator-console/console-panels.ts declares them by route id;
 * console-page.ts resolves each id to its method and path). The script has no panel of its own in mind.
 */

/** `label` heads the column; `path` is a dotted path into each item (`a|b` falls back to b, `=text` is literal). */
export type Column = readonly [label: string, path: string, delivered?: string];

type RowValue = string | boolean;

/** Each field named (a column path) has that value, or (`{ not }`) anything else. */
export type RowConditions = Readonly<Record<string, RowValue | { not: RowValue }>>;

/** A body field: a literal, or read at the click. */
export type ActionValue =
  | RowValue
  /** A field of the row (a column path). */
  | { row: string }
  /** The value of the page's input with this id; `missing` is the error when it is empty. */
  | { input: string; missing?: string }
  /** That input's comma-separated values as positional template variables: "Ada, A-1042" is {"1": "Ada", "2": "A-1042"}. */
  | { variables: string }
  /** The file chosen in that file input: the body goes as multipart (a knowledge file). */
  | { file: string };

/**
 * A request a button makes. `{…}` in `path`, `follow` and `done` is filled when it is clicked, from what the
 * click knows: `{key}` the row's key, `{of}` the key of the row a detail panel was opened for, `{row.x}` a
 * field of the row, `{body.x}` the body sent, `{answer.x}` its answer, `{followed.x}` the answer of `follow`.
 * In a path each is percent-encoded.
 */
export interface ActionRequest {
  label: string;
  /** Shown on the rows that match. @default every row */
  when?: RowConditions;
  method: 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  path: string;
  /** The JSON body, each field a literal or read when the button is clicked. @default no body */
  body?: Readonly<Record<string, ActionValue>>;
  /** A path read (GET) once the request answered. */
  follow?: string;
  /** The notice line once it is done. @default none, the panels just refresh */
  done?: string;
}

/** A boolean of a panel's answer switched by one button (the workspace's comment AI). */
export interface ToggleRequest {
  label: string;
  field: string;
  /** PATCHed with the other state. */
  path: string;
  note?: string;
}

/** The options of a select filled from a panel's items (the conversation an automation runs on). */
export interface PanelChoices {
  select: string;
  when?: RowConditions;
  value: string;
  label: string;
  none: string;
}

export interface PanelData {
  id: string;
  title: string;
  /** The list path, relative to the emulator; `{of}` in it is the key of the row it lists for (a detail, `across`). */
  list: string;
  columns: readonly Column[];
  empty?: string;
  /** @default 'id' */
  key?: string;
  /** @default 'data' */
  items?: string;
  actions?: readonly ActionRequest[];
  choices?: PanelChoices;
  submit?: ActionRequest;
  toggle?: ToggleRequest;
  across?: { panel: string; first: number };
  /** A detail panel: the panel whose rows get its button, and the button's label. */
  detailOf?: { panel: string; button: string };
}

export interface ConsolePageData {
  panels: PanelData[];
  details: PanelData[];
}
