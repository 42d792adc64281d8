/**
 * A JSON answer already written as text: a page of stored documents, which the database keeps as the
 * JSON.stringify of each one, so a list is answered without parsing every document and serialising it
 * again (most of a list route's time under load, issue 25 point 8). `T` is the value the text holds, for the
 * compiler: a handler returning `JsonText<Page<Contact>>` is checked against its route's response type.
 */
export class JsonText<T> {
  /** The value the text holds, for the compiler only (never set). */
  declare readonly value?: T;

  constructor(readonly text: string) {}

  /** The value itself (for response checks); the text is what is sent. */
  parse(): T {
    return JSON.parse(this.text) as T;
  }
}

/** The JSON text of an answer body: a JsonText as it is, anything else as JSON.stringify (and res.json) write it. */
export function jsonTextOf(body: unknown): string {
  return body instanceof JsonText ? body.text : JSON.stringify(body);
}
