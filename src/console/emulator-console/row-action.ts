import type { ActionRequest } from '../browser/console-data.js';
import { actionRoute, listPath, type RouteRef } from './route-ref.js';

export type { ActionValue, RowConditions } from '../browser/console-data.js';

/**
 * A button in each row of a console panel, declared as data: what it is called, on which rows it shows,
 * and the route it calls (by its contract id, or an /_emulator control). The console's script reads these
 * and has no panel of its own in mind; `{…}` templates are described in browser/console-data.ts.
 */
export interface RowAction extends Omit<ActionRequest, 'method' | 'path' | 'follow'> {
  call: RouteRef;
  /** A route read (GET) once the request answered: the status its answer points to. */
  follow?: RouteRef;
}

/** The button as the script gets it: its route resolved to a method and path. */
export function actionRequest({ call, follow, ...action }: RowAction): ActionRequest {
  return { ...action, ...actionRoute(call), ...(follow ? { follow: listPath(follow) } : {}) };
}
