import type { BrainConfig } from '../../api/schemas/channel-group.js';
import type { ReplyTask } from '../../api/schemas/custom-reply.js';
import type { Channel } from '../../resources/index.js';

const TASKS: Record<ReplyTask, string> = {
  reply: "Reply to the customer's last message in this conversation.",
  comment_reply: 'Reply publicly to the comment (the last message); keep it short and never share private details.',
};

/**
 * `reply_instructions`: the group's `brain_config` as text for a model, each field on its own line, the
 * channel's own prompt included. Every field is bounded by the brain_config schema, so the text is too.
 */
export function replyInstructions(brain: BrainConfig | undefined, channel: Channel, task: ReplyTask): string {
  const b = brain ?? {};
  const lines = [
    b.business_name ? `You reply on behalf of ${b.business_name}.` : 'You reply on behalf of the business.',
    b.tone && `Tone: ${b.tone}.`,
    b.language && `Language: ${b.language}.`,
    b.emoji_usage && `Emoji: ${b.emoji_usage}.`,
    `Channel: ${channel}.`,
    b.platform_prompts?.[channel] && `For this channel: ${b.platform_prompts[channel]}`,
    b.company_info && `About the business: ${b.company_info}`,
    b.faqs && `FAQs: ${b.faqs}`,
    TASKS[task],
    'Answer from the knowledge given. Never say you did something (a refund, a cancellation, a booking) unless verified_tool_context lists that action.',
  ];
  return lines.filter(Boolean).join('\n');
}
