import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { allEndpoints } from '../../src/api/all-endpoints.js';
import { consolePage } from '../../src/console/emulator-console/console-page.js';
import { PANELS } from '../../src/console/emulator-console/console-panels.js';
import { DETAIL_PANELS } from '../../src/console/emulator-console/detail-panels.js';
import type { ActionRequest } from '../../src/console/browser/console-data.js';
import { actionRequest, type ActionValue } from '../../src/console/emulator-console/row-action.js';
import { EMULATOR_CONTROLS } from '../../src/emulator/controls/index.js';

interface Route {
  method: string;
  path: string;
  body?: z.ZodObject;
}

const ROUTES: Route[] = [
  ...allEndpoints().map(({ def }) => def),
  ...EMULATOR_CONTROLS.map((c) => ({ method: 'POST', path: `/_emulator${c.path}`, body: c.body })),
];

/** The route a row action's path (its `{…}` filled at the click) reaches, or undefined. */
function routeOf(method: string, path: string): Route | undefined {
  const segments = path.split('/');
  return ROUTES.find((route) => {
    const wanted = route.path.split('/');
    return (
      route.method === method &&
      wanted.length === segments.length &&
      wanted.every((s, i) => (s.startsWith(':') ? /^\{[^}]+\}$/.test(segments[i]!) : s === segments[i]))
    );
  });
}

// A panel's form that makes its own request is checked as its buttons are; each as the page's script gets it,
// its route id resolved to a method and path.
const actions: [string, ActionRequest][] = [...PANELS, ...DETAIL_PANELS].flatMap((panel) =>
  [...(panel.actions ?? []), ...(panel.submit ? [panel.submit] : [])].map((action): [string, ActionRequest] => [
    `${panel.id}: ${action.label}`,
    actionRequest(action),
  ]),
);

/** The ids of the page's inputs an action reads when it is clicked. */
function inputsOf(action: ActionRequest): string[] {
  return Object.values(action.body ?? {}).flatMap((value: ActionValue) => {
    if (typeof value !== 'object' || 'row' in value) return [];
    if ('input' in value) return [value.input];
    return ['variables' in value ? value.variables : value.file];
  });
}
// Only the actions that read inputs: for the others the check below would have nothing to assert.
const reading = actions.filter(([, action]) => inputsOf(action).length > 0);

describe('the console panels’ row actions', () => {
  it('are declared for the panels that act on their rows', () => {
    expect(actions.map(([name]) => name)).toEqual(
      expect.arrayContaining([
        'templates: Approve',
        'journeys: Enroll',
        'group-knowledge: Delete',
        'group-knowledge: Upload a file',
        'attempts: Resend',
        'conversations: Close',
        'conversations: Reopen',
      ]),
    );
  });

  it.each(actions)('%s requests a route of the contract or an emulator control, with fields it reads', (_, action) => {
    const route = routeOf(action.method, action.path);
    expect(route, `${action.method} ${action.path}`).toBeDefined();
    const fields = Object.keys(action.body ?? {});
    if (fields.length > 0) expect(Object.keys(route!.body?.shape ?? {})).toEqual(expect.arrayContaining(fields));
    if (action.follow) expect(routeOf('GET', action.follow), action.follow).toBeDefined();
  });

  it.each(reading)('%s reads only inputs the page has', (_, action) => {
    const page = String(consolePage().body);
    for (const id of inputsOf(action)) expect(page).toContain(`id="${id}"`);
  });

  it('finds no route for a path the contract lacks, so the checks above can fail', () => {
    expect(routeOf('POST', '/v1/channels/{key}')).toBeUndefined();
    expect(routeOf('PATCH', '/v1/channels/{key}/nothing')).toBeUndefined();
    expect(routeOf('PATCH', '/v1/channels/{key}')).toBeDefined();
  });
});
