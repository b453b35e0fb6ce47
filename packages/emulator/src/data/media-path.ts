/** Path prefix of the product images the emulator serves (`/media/products/prod_00001.svg`). */
export const MEDIA_PREFIX = '/media/products';

/**
 * The path of a product's placeholder image on the emulator's own origin. Here, beside the
 * data that stores it, so the image server (`media.ts`) and the data do not import each other.
 */
export function productImagePath(productId: string): string {
  return `${MEDIA_PREFIX}/${productId}.svg`;
}
