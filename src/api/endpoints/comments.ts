import { endpoint } from '../endpoint.js';
import { page } from '../schemas/page.js';
import {
  Comment,
  CommentListQuery,
  CommentReply,
  CommentReplyCreate,
  CommentSettings,
  CommentSettingsUpdate,
} from '../schemas/comment.js';
import { IdParams, synthetic } from '../schemas/common.js';

export const comments = {
  list: endpoint({
    method: 'GET',
    path: '/v1/comments',
    summary: 'List tracked social comments',
    scope: 'comments:read',
    query: CommentListQuery,
    response: page(Comment),
    paginated: true,
  }),
  get: endpoint({
    method: 'GET',
    path: '/v1/comments/:id',
    summary: 'One comment with its replies',
    scope: 'comments:read',
    params: IdParams,
    response: Comment,
  }),
  reply: endpoint({
    method: 'POST',
    path: '/v1/comments/:id/reply',
    summary: 'Reply to a comment',
    scope: 'comments:write',
    params: IdParams,
    body: CommentReplyCreate,
    response: synthetic(CommentReply),
    status: 201,
    testKeySynthetic: true,
  }),
  getSettings: endpoint({
    method: 'GET',
    path: '/v1/comments/settings',
    summary: 'Comment automation switches and keyword rules',
    scope: 'comments:read',
    response: CommentSettings,
  }),
  updateSettings: endpoint({
    method: 'PATCH',
    path: '/v1/comments/settings',
    summary: 'Update org-wide comment settings and rules; switch AI comment auto-replies',
    scope: 'automations:write',
    body: CommentSettingsUpdate,
    response: CommentSettings,
  }),
};
