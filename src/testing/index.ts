// `convo-kit/testing`: the helpers our own tests use, for yours.
export { signedDelivery, type SignedDelivery, type SignedDeliveryInput } from './signed-delivery.js';
export { sampleEvent, type SampleEnvelope } from '../events/index.js';
export { signedHeaders, newDeliveryId, type SignedHeaders } from '../signature/index.js';
export {
  signedReplyRequest,
  sampleReplyRequest,
  type SignedReplyRequest,
  type SignedReplyRequestInput,
} from './signed-reply-request.js';
export { directEffects, type DirectEffects } from './direct-effects.js';
