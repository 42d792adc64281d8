/* global require */
// Dredd hooks for test/contract/openapi-dredd.test.ts. Dredd loads this file in its own process (CommonJS,
// `require('hooks')` is Dredd's). They do one thing: put in the path the ids that no document can know,
// those of resources the seeded workspace has none of (a webhook endpoint, a journey, an enrollment's
// action, a campaign). The test makes them on the emulator first and passes them here by path template;
// the document given to Dredd names them HOOK_ID.
// eslint-disable-next-line @typescript-eslint/no-require-imports -- Dredd loads hooks with require(), and serves 'hooks' to them
const hooks = require('hooks');

/** The path example that stands for an id these hooks put in (the test's HOOK_ID). */
const HOOK_ID = 'id-from-dredd-hooks';
/** `{ "/v1/campaigns/{id}": "cmp_…" }`: the id each such route is called with. */
const ids = JSON.parse(process.env.CONVO_KIT_DREDD_IDS || '{}');

hooks.beforeEach((transaction) => {
  const id = ids[transaction.origin.resourceName];
  if (id === undefined) return;
  transaction.fullPath = transaction.fullPath.replace(HOOK_ID, encodeURIComponent(id));
  transaction.request.uri = transaction.request.uri.replace(HOOK_ID, encodeURIComponent(id));
});
