/**
 * The words of the fake-action check (docs/custom-reply.md, "The checks"): for each action the service can take,
 * the verbs that say it was done. A verb in `done` says the action by itself ("refunded", "cancelled"); a verb
 * in `doneWith` says it only about one of its `objects` in the same clause ("issued … a refund", "your
 * cancellation has been processed", "placed … an order"). Verbs are in the forms a completed action takes
 * (past participle and simple past); a phrasal verb is its words with one space ("paid back"). The structure
 * around them (who did it, to what, and whether it is done) is read by action-claims.ts.
 */
export const ACTION_VOCABULARY: readonly {
  action: string;
  done: readonly string[];
  doneWith: readonly { verbs: readonly string[]; objects: readonly string[] }[];
}[] = [
  {
    action: 'refund',
    done: ['refunded', 'reimbursed', 'credited', 'paid back', 'repaid'],
    doneWith: [
      {
        verbs: [
          'issued',
          'processed',
          'approved',
          'sent',
          'made',
          'completed',
          'complete',
          'done',
          'finalised',
          'finalized',
          'arranged',
          'initiated',
          'went through',
          'gone through',
          'pushed through',
          'put through',
        ],
        objects: ['refund', 'reimbursement'],
      },
      {
        verbs: ['returned', 'reversed', 'voided', 'put back', 'sent back', 'given back'],
        objects: ['money', 'payment', 'amount', 'charge', 'fee', 'funds', 'deposit', 'difference', 'transaction'],
      },
    ],
  },
  {
    action: 'cancel',
    done: ['cancelled', 'canceled', 'called off', 'terminated'],
    doneWith: [{ verbs: ['processed', 'confirmed', 'completed', 'complete', 'done'], objects: ['cancellation'] }],
  },
  {
    action: 'ship',
    done: ['shipped', 'dispatched'],
    doneWith: [
      {
        verbs: ['sent', 'sent out', 'posted', 'mailed', 'couriered'],
        objects: ['replacement', 'parcel', 'package', 'item', 'items', 'product', 'order', 'goods', 'pair'],
      },
    ],
  },
  {
    action: 'order',
    done: ['reordered', 're-ordered'],
    doneWith: [{ verbs: ['placed', 'created', 'submitted', 'raised', 'put in'], objects: ['order'] }],
  },
  {
    action: 'book',
    done: ['booked', 'rebooked', 're-booked', 'reserved', 'rescheduled', 're-scheduled'],
    doneWith: [
      {
        verbs: ['made', 'confirmed', 'moved', 'arranged', 'scheduled', 'set up', 'changed', 'extended'],
        objects: ['booking', 'reservation', 'appointment', 'slot', 'table', 'stay', 'visit'],
      },
    ],
  },
  {
    action: 'update_account',
    done: [],
    doneWith: [
      {
        verbs: [
          'changed',
          'updated',
          'reset',
          'deleted',
          'closed',
          'upgraded',
          'downgraded',
          'removed',
          'corrected',
          'switched',
        ],
        objects: [
          'account',
          'password',
          'address',
          'email',
          'e-mail',
          'phone',
          'plan',
          'subscription',
          'details',
          'username',
          'profile',
        ],
      },
    ],
  },
  {
    action: 'discount',
    done: ['waived'],
    doneWith: [
      {
        verbs: ['applied', 'added', 'given', 'gave', 'issued', 'sent', 'knocked', 'taken'],
        objects: ['discount', 'coupon', 'voucher', 'code', 'promo', 'credit', 'percent-off'],
      },
    ],
  },
  {
    action: 'handoff',
    done: ['escalated'],
    doneWith: [
      { verbs: ['passed', 'forwarded', 'handed', 'transferred', 'referred', 'flagged'], objects: ['to', 'over', 'on'] },
      {
        verbs: ['opened', 'raised', 'created', 'logged', 'filed', 'submitted'],
        objects: ['ticket', 'case', 'complaint'],
      },
    ],
  },
];
