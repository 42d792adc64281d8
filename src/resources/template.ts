import { z } from 'zod';

export const TemplateStatus = z.enum(['draft', 'pending_review', 'approved', 'rejected', 'paused', 'disabled']);
export const TemplateCategory = z.enum(['UTILITY', 'MARKETING']);
export const TemplateQuality = z.enum(['high', 'medium', 'low', 'unknown']);
