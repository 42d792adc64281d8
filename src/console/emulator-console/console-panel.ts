import type { ActionRequest, PanelData, ToggleRequest } from '../browser/console-data.js';
import type { SafeHtml } from '../html.js';
import { actionRequest, type RowAction } from './row-action.js';
import { actionRoute, listPath, type RouteRef } from './route-ref.js';

export type { Column } from '../browser/console-data.js';

/**
 * A table of the console, filled by its script from one list route (src/api/endpoints), declared by route id.
 * The fields the script reads are documented on PanelData (browser/console-data.ts).
 */
export interface ConsolePanel extends Omit<PanelData, 'list' | 'actions' | 'submit' | 'toggle' | 'detailOf'> {
  /** The list route: `{ route: 'tickets.list', query: { limit: 20 } }`. */
  list: RouteRef;
  /** The buttons of each row. @default none */
  actions?: readonly RowAction[];
  /** A form shown above the table: inputs its buttons read, or (`submit`) a request of its own. @default none */
  form?: SafeHtml;
  /** What submitting `form` does, as a row button would (`{of}` is the row a detail panel was opened for). @default nothing */
  submit?: RowAction;
  /** A setting of the panel's answer itself, not of a row, with its on/off button. @default none */
  toggle?: PanelToggle;
}

/** A boolean of a panel's answer switched by one button (the workspace's comment AI): `call` with the other state. */
export interface PanelToggle extends Omit<ToggleRequest, 'path'> {
  call: RouteRef;
}

/** A panel over what belongs to one row of another panel (a group's knowledge), shown once its button is clicked. */
export interface ConsoleDetailPanel extends ConsolePanel {
  /** The panel whose rows get the button. */
  of: string;
  /** The row's button that opens it. */
  button: string;
}

/** A panel as the script gets it: every route resolved to its method and path, the form left out (it is markup). */
export function panelData(panel: ConsolePanel | ConsoleDetailPanel): PanelData {
  const { form: _form, list, actions, submit, toggle, of, button, ...shown } = panel as ConsoleDetailPanel;
  return {
    ...shown,
    list: listPath(list),
    ...(actions ? { actions: actions.map(actionRequest) } : {}),
    ...(submit ? { submit: actionRequest(submit) } : {}),
    ...(toggle
      ? { toggle: { label: toggle.label, field: toggle.field, note: toggle.note, path: toggleRoute(toggle.call) } }
      : {}),
    ...(of !== undefined ? { detailOf: { panel: of, button } } : {}),
  };
}

function toggleRoute(ref: RouteRef): string {
  const { method, path }: Pick<ActionRequest, 'method' | 'path'> = actionRoute(ref);
  if (method !== 'PATCH') throw new TypeError(`A toggle PATCHes its setting, not ${method} ${path}`);
  return path;
}
