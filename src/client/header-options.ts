/** `if-match` -> `ifMatch`, `X-Request-ID` -> `xRequestId`: how a header of the contract is named as a call option. */
export type HeaderOptionName<S extends string> = CamelCase<Lowercase<S>>;

type CamelCase<S extends string> = S extends `${infer Head}-${infer Tail}`
  ? `${Head}${Capitalize<CamelCase<Tail>>}`
  : S;

export function headerOptionName(header: string): string {
  return header.toLowerCase().replace(/-([a-z0-9])/g, (_m, c: string) => c.toUpperCase());
}
