import type { SeededRandom } from '../random.js';
import { VERTICALS, type Vertical } from './categories.js';
import { BRAND_ROOTS, BRAND_SUFFIXES } from './words.js';

/** A brand; products carry its id in `metadata.brand_id`. */
export interface BrandRecord {
  id: string;
  name: string;
  vertical: Vertical;
}

const BRANDS_PER_VERTICAL = 18;

const capitalize = (word: string): string => word.charAt(0).toUpperCase() + word.slice(1);

/** Generates brands for every vertical, with unique names and ids. */
export function generateBrands(rng: SeededRandom): BrandRecord[] {
  const names = new Set<string>();
  const brands: BrandRecord[] = [];
  for (const vertical of VERTICALS) {
    for (let i = 0; i < BRANDS_PER_VERTICAL; i++) {
      let name = capitalize(`${rng.pick(BRAND_ROOTS)}${rng.pick(BRAND_SUFFIXES)}`.toLowerCase());
      while (names.has(name)) name = `${name} ${rng.pick(['Co', 'Labs', 'Studio', 'Works'])}`;
      names.add(name);
      const slug = name.toLowerCase().replace(/[^a-z0-9]+/g, '-');
      brands.push({ id: `brand_${slug}`, name, vertical });
    }
  }
  return brands;
}
