import { z } from 'zod';
import { queryText } from '../../http/validation.js';
import { PICTURE_ERRORS } from './pictures.errors.js';

/** POST /profile/upload?user_id=: whose picture (the caller's when absent). */
export const uploadQuery = z.object({ user_id: queryText('user_id').optional() });

/** The upload is multipart, which leaves no parsed body; a JSON body is the wrong kind of request. */
export const uploadBody = z.null({ error: PICTURE_ERRORS.notMultipart }).optional();

export const pictureParams = z.object({ file: z.string() });
