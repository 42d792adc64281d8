/** Headers as node:http gives them (lower-case keys) or as a fetch `Headers`. */
export type HeaderInput = Headers | Record<string, string | string[] | undefined>;

export function headerValue(headers: HeaderInput, name: string): string | undefined {
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined;
  const value = (headers as Record<string, string | string[] | undefined>)[name];
  return Array.isArray(value) ? value.join(', ') : value;
}
