// `convo-kit/resources`: the service's resources (Message, Conversation, Contact, Ticket, Template), each a zod
// schema and the type derived from it, for code that reads what the API answers and the events carry.
export { Channel, Timestamp, PhoneNumber, HttpsUrl } from './common.js';
export {
  MediaType,
  Media,
  CtaUrl,
  Buttons,
  MessageInput,
  MessageDeliveryStatus,
  MessageSource,
  MessageDirection,
  Message,
} from './message.js';
export { ConversationStatus, Routing, Conversation } from './conversation.js';
export { Identity, Contact } from './contact.js';
export { TicketKind, TicketStatus, TicketPriority, Resolution, Ticket } from './ticket.js';
export { TemplateStatus, TemplateCategory, TemplateQuality } from './template.js';
