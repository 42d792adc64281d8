/**
 * A button in each row of a console panel, declared as data: what it is called, on which rows it shows,
 * and the request it makes. The console's script reads these and has no panel of its own in mind.
 *
 * `{…}` in `path`, `follow` and `done` is filled, when the button is clicked, from what the click knows:
 * `{key}` the row's key, `{of}` the key of the row a detail panel was opened for, `{row.x}` a field of the
 * row, `{body.x}` the body sent, `{answer.x}` its answer and `{followed.x}` the answer of `follow`. In a
 * path each is percent-encoded.
 */
export interface RowAction {
  label: string;
  /** Shown on the rows that match. @default every row */
  when?: RowConditions;
  method: 'POST' | 'PATCH' | 'DELETE';
  /** The route, relative to the emulator: a route of the contract or an `/_emulator` control. */
  path: string;
  /** The JSON body, each field a literal or read when the button is clicked. @default no body */
  body?: Readonly<Record<string, ActionValue>>;
  /** A route read (GET) once the request answered: the status its answer points to. */
  follow?: string;
  /** The notice line once it is done. @default none, the panels just refresh */
  done?: string;
}

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
