import type { Conversation } from '../../../resources/index.js';

/** The phone channel's customer-service window: free text is allowed this long after the customer's last message. */
export const SERVICE_WINDOW_SECONDS = 24 * 60 * 60;

/** When a window opened now (by an inbound message) closes; null on channels without a window. */
export function windowExpiry(channel: Conversation['channel'], nowMs: number): string | null {
  return channel === 'phone' ? new Date(nowMs + SERVICE_WINDOW_SECONDS * 1000).toISOString() : null;
}

/** Free text may go out: always off the phone channel, on it only inside the window. */
export function windowOpen(
  conversation: Pick<Conversation, 'channel' | 'service_window_expires_at'>,
  nowMs: number,
): boolean {
  if (conversation.channel !== 'phone') return true;
  const expires = conversation.service_window_expires_at;
  return expires !== null && Date.parse(expires) > nowMs;
}
