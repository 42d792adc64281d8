/**
 * The slice of a pino logger the client uses (a pino instance fits as is). The client logs the method,
 * the route, statuses, attempts and request ids; never the key, the Authorization header, bodies or signatures.
 */
export interface ClientLogger {
  debug(obj: object, msg?: string): void;
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
}

export const silentLogger: ClientLogger = {
  debug() {},
  info() {},
  warn() {},
};
