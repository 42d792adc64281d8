/**
 * An address with ?token= (INSPECTOR_TOKEN): the server keeps the token in an HttpOnly cookie that the page's
 * requests and a reload present (inspector/token-cookie.ts), so the address drops it, and no history entry,
 * bookmark or Referer keeps it.
 */
export function dropTokenFromAddress(): void {
  const address = new URL(location.href);
  if (!address.searchParams.has('token')) return;
  address.searchParams.delete('token');
  history.replaceState(null, '', address.pathname + address.search + address.hash);
}
