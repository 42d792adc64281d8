/**
 * POSTs to a running emulator with its admin key, for tests and demos: the `/_emulator/*` controls,
 * and `/v1/webhooks` with a loopback http URL, which the client (like the service) refuses and only
 * the emulator accepts (docs/keys-and-limits.md). A non-2xx answer throws with the status and body.
 * @example const post = emulatorPost(server.url, emulator.adminKey);
 * await post('/_emulator/inbound', { channel: 'phone', from: { handle: '+14155550100' }, content: 'hi' });
 */
export function emulatorPost(baseUrl: string, adminKey: string) {
  return async <T>(path: string, body: unknown): Promise<T> => {
    const response = await fetch(`${baseUrl}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${adminKey}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const json = (await response.json()) as T;
    if (!response.ok) throw new Error(`POST ${path} answered ${response.status}: ${JSON.stringify(json)}`);
    return json;
  };
}
