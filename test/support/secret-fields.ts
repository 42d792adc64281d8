/**
 * Fields every printout of a stored delivery redacts (secret-looking names, credential-looking values under any
 * name), and look-alikes it keeps: the delivery inspector's and the CLI's tests share them.
 */
export const SECRET_FIELDS = {
  private_key: 'pk_live_one',
  accessKey: 'ak_two',
  auth: 'three',
  session_id: 'sess_four',
  cookie: 'sid=five',
  pwd: 'six',
  forwarded: 'Bearer eyJhbGciOiJIUzI1NiJ9.seven',
  hook: 'whsec_eight',
};
export const KEPT_FIELDS = { plan: 'Basic plan', note: 'Bearer of good news', keyword: 'refund' };
