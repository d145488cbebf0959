// sharp and DiceBear weigh about 50 MB once loaded and are needed only when someone changes
// their picture, so they load on first use instead of at start (a small home box has little RAM).
const loadSharp = () =>
  import('sharp').then((module) => {
    const sharp = module.default;
    // One libvips thread per image (the job queue runs two images at once) and no operation
    // cache: a picture is decoded once, and cached pixels would only hold memory.
    sharp.concurrency(1);
    sharp.cache(false);
    return sharp;
  });

export const MAX_PICTURE_SIDE = 512;
const AVATAR_SIDE = 256;
/**
 * The most pixels an upload may decode to (a 16-megapixel photo; a 5 MB file may still claim
 * gigapixels). Checked on the header before anything is decoded.
 */
export const MAX_INPUT_PIXELS = 16_000_000;

export class UnreadablePicture extends Error {}
export class TooManyPixels extends Error {}

/**
 * Re-encodes an upload (its bytes or its file) to a square WebP of at most 512 px (cover crop,
 * EXIF orientation applied). sharp writes no metadata unless asked to, so EXIF, GPS, ICC,
 * comments and the like are gone.
 */
export async function reencodePicture(input: Buffer | string): Promise<Buffer> {
  const sharp = await loadSharp();
  try {
    const image = sharp(input, { limitInputPixels: MAX_INPUT_PIXELS, animated: false }).rotate();
    const { width, height } = await sharp(input, { limitInputPixels: false, animated: false }).metadata();
    if (!width || !height) throw new UnreadablePicture('no dimensions');
    if (width * height > MAX_INPUT_PIXELS) throw new TooManyPixels(`${width}×${height}`);
    const side = Math.min(MAX_PICTURE_SIDE, width, height);
    return await image
      .resize(side, side, { fit: 'cover', position: 'attention' })
      .webp({ quality: 85 })
      .toBuffer();
  } catch (error) {
    if (error instanceof TooManyPixels || error instanceof UnreadablePicture) throw error;
    throw new UnreadablePicture(error instanceof Error ? error.message : String(error));
  }
}

/** A DiceBear pixel-art avatar with a random seed, rasterised to PNG. */
export async function generatePixelAvatar(): Promise<Buffer> {
  const [{ createAvatar }, { pixelArt }, sharp] = await Promise.all([
    import('@dicebear/core'),
    import('@dicebear/collection'),
    loadSharp(),
  ]);
  const svg = createAvatar(pixelArt, { seed: crypto.randomUUID(), size: AVATAR_SIDE }).toString();
  return sharp(Buffer.from(svg)).resize(AVATAR_SIDE, AVATAR_SIDE, { kernel: 'nearest' }).png().toBuffer();
}
