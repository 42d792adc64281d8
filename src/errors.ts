/**
 * The one base class for errors convo-kit throws on purpose. `code` is a string union per
 * subclass so callers can branch on it; messages say what was expected and what arrived and
 * never contain a secret, key or signature.
 */
export class ConvoKitError<Code extends string = string> extends Error {
  readonly code: Code;

  constructor(code: Code, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
    this.code = code;
  }

  /** `JSON.stringify(error)` (as loggers and `res.json` do) keeps the name and message, which are not own enumerable fields. */
  toJSON(): Record<string, unknown> {
    return { name: this.name, code: this.code, message: this.message, ...(this as object) };
  }
}

/**
 * An option or argument the kit cannot use, thrown where it is given (a factory, a call), before any request:
 * the one rule for option errors (src/api/README.md). The message quotes the option and what arrived:
 * ``Expected `leaseMs` to be a positive number, got `0` ``.
 */
export class InvalidOptionError extends ConvoKitError<'INVALID_OPTION'> {
  constructor(message: string, options?: { cause?: unknown }) {
    super('INVALID_OPTION', message, options);
  }
}
