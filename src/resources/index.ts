// `convo-kit/resources`: the service's resources (Message, Conversation, Contact, Ticket, Template), each a zod
// schema and the type derived from it, for code that reads what the API answers and the events carry. They are
// defined with every other wire schema in src/api/schemas/ (src/api/README.md); this entry only picks them out.
export { Channel, Timestamp, PhoneNumber, HttpsUrl } from '../api/schemas/common.js';
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
} from '../api/schemas/message.js';
export { ConversationStatus, Routing, Conversation } from '../api/schemas/conversation.js';
export { Identity, Contact } from '../api/schemas/contact.js';
export { TicketKind, TicketStatus, TicketPriority, Resolution, Ticket } from '../api/schemas/ticket.js';
export { TemplateStatus, TemplateCategory, TemplateQuality } from '../api/schemas/template.js';
