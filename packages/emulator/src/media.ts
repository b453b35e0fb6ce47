import type { Context } from 'hono';
import type { CatalogData, ProductRecord } from './data/index.js';

/**
 * A product's media for one answer: stored paths become absolute URLs on `origin` (the
 * address the request came to), so any client can fetch them over HTTP.
 */
export function mediaForOrigin(
  media: ProductRecord['media'],
  origin: string | undefined,
): ProductRecord['media'] {
  if (!origin) return media;
  return media.map((item) =>
    item.url.startsWith('/') ? { ...item, url: origin + item.url } : item,
  );
}

/** FNV-1a: a stable number per product, so an image never changes between runs. */
function hashOf(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

function escapeXml(text: string): string {
  return text.replace(/[<>&"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

/** Characters of the caption's first line: at 40 px bold they fit the 800 px picture. */
const CAPTION_CHARACTERS = 26;

/**
 * The last whole words of `text` that fit the line ("Trail Running Shoe", never "ummit 6
 * Trail Running Shoe"); a last word longer than the line alone is shortened with an ellipsis.
 */
function lastWords(text: string): string {
  const words = text.trim().split(/\s+/);
  let line = '';
  for (let i = words.length - 1; i >= 0; i--) {
    const longer = line === '' ? (words[i] ?? '') : `${words[i]} ${line}`;
    if (longer.length > CAPTION_CHARACTERS) break;
    line = longer;
  }
  return line !== '' ? line : `${(words.at(-1) ?? '').slice(0, CAPTION_CHARACTERS - 1)}…`;
}

/** The title without its brand if that fits one line of the image, else its last words. */
export function caption(product: ProductRecord): { noun: string; brand: string } {
  const brand = product.metadata.brand_name;
  const rest = product.title.startsWith(brand) ? product.title.slice(brand.length).trim() : '';
  const noun =
    rest.length > 0 && rest.length <= CAPTION_CHARACTERS ? rest : lastWords(product.title);
  return { noun, brand };
}

/**
 * A deterministic 4:3 placeholder picture of a product: a soft colour field per product, a
 * simple product "tile" and its brand and model as text. SVG, so it is small and sharp.
 */
export function productImageSvg(product: ProductRecord): string {
  const hash = hashOf(product.id);
  const hue = hash % 360;
  const tilt = ((hash >>> 9) % 11) - 5;
  const { noun, brand } = caption(product);
  return [
    '<svg xmlns="http://www.w3.org/2000/svg" width="800" height="600" viewBox="0 0 800 600"',
    ` role="img" aria-label="${escapeXml(product.title)}">`,
    '<defs><linearGradient id="bg" x1="0" y1="0" x2="1" y2="1">',
    `<stop offset="0" stop-color="hsl(${hue} 60% 92%)"/>`,
    `<stop offset="1" stop-color="hsl(${(hue + 40) % 360} 55% 82%)"/>`,
    '</linearGradient></defs>',
    '<rect width="800" height="600" fill="url(#bg)"/>',
    `<g transform="rotate(${tilt} 400 270)">`,
    `<rect x="250" y="140" width="300" height="230" rx="36" fill="hsl(${hue} 45% 45%)"/>`,
    `<circle cx="400" cy="255" r="62" fill="hsl(${hue} 70% 88%)"/>`,
    '</g>',
    '<g font-family="system-ui, sans-serif" text-anchor="middle">',
    `<text x="400" y="460" font-size="40" font-weight="700" fill="hsl(${hue} 40% 20%)">${escapeXml(noun)}</text>`,
    `<text x="400" y="512" font-size="28" fill="hsl(${hue} 25% 35%)">${escapeXml(brand)}</text>`,
    '</g></svg>',
  ].join('');
}

/** `GET /media/products/:file`: the placeholder image of a product, `image/svg+xml`. */
export function productImageHandler(data: CatalogData) {
  return (c: Context): Response => {
    const file = c.req.param('file') ?? '';
    const product = file.endsWith('.svg') ? data.productById.get(file.slice(0, -4)) : undefined;
    if (!product) return c.json({ detail: 'Not Found' }, 404);
    return new Response(productImageSvg(product), {
      headers: {
        'content-type': 'image/svg+xml; charset=utf-8',
        'cache-control': 'public, max-age=86400, immutable',
        'x-content-type-options': 'nosniff',
        // Pages on other origins (the web chat) may embed the images.
        'cross-origin-resource-policy': 'cross-origin',
      },
    });
  };
}
