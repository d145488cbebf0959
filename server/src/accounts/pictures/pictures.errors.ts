/** Every message the picture calls answer with (docs/strings.md#picture-upload where the spec names one). */
export const PICTURE_ERRORS = {
  noFile: 'Please select a file first',
  tooLarge: 'File too large (max 5MB)',
  tooManyPixels: 'Image too large (max 16 megapixels)',
  unsupported: 'Only PNG, JPEG, WebP and GIF images are accepted',
  unreadable: 'The image could not be read',
  notMultipart: 'Send the picture as multipart/form-data in the field "file"',
  forbidden: 'Forbidden',
  notFound: 'User not found',
  pictureNotFound: 'Picture not found',
} as const;
