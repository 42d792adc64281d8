import { ConvoKitError } from '../errors.js';

/**
 * The origin (plus any prefix such as `/api`) that table paths (`/v1/...`) are appended to. Accepts the
 * bare origin, `…/v1` or `…/api/v1` (the compatibility routes, spec Versioning 2), with or without a
 * trailing slash: `https://h/api/v1/` -> `https://h/api`, so `/v1/tickets` lands on `https://h/api/v1/tickets`.
 */
export function normalizeBaseUrl(baseUrl: string): string {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new ConvoKitError('INVALID_OPTION', `Expected \`baseUrl\` to be an absolute http(s) URL, got \`${baseUrl}\``);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new ConvoKitError('INVALID_OPTION', `Expected \`baseUrl\` to use https: or http:, got \`${url.protocol}\``);
  }
  if (url.search || url.hash || url.username || url.password) {
    throw new ConvoKitError(
      'INVALID_OPTION',
      'Expected `baseUrl` without query, fragment or credentials (the key goes in `apiKey`)',
    );
  }
  const path = url.pathname.replace(/\/+$/, '').replace(/\/v1$/, '');
  return `${url.origin}${path}`;
}
