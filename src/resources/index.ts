export * from './common.js';
export * from './message.js';
export * from './conversation.js';
export * from './contact.js';
export * from './ticket.js';
export * from './template.js';
