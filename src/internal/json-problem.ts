/**
 * JSON.parse's reason without the excerpt of the input that V8 quotes (`Unexpected token 'k', "{"key": "sk_…"
 * is not valid JSON`): the reason is answered and logged (`convo-kit listen` prints it), and the bytes may hold a
 * secret. What stays (the token, the position) is enough to find the fault in the sender's own copy.
 */
export function jsonProblem(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.replace(/, ".*"(\.\.\.)? is not valid JSON$/s, '').slice(0, 200);
}
