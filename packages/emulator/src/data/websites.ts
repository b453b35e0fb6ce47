import type { CountryCode } from '@catalogkit/core';
import { COUNTRY_CODES } from '@catalogkit/core/schemas';
import type { SeededRandom } from '../random.js';
import { CATEGORY_DEFINITIONS, VERTICALS, type Vertical } from './categories.js';
import { RETAILER_HOMES, RETAILER_NOUNS, RETAILER_PREFIXES } from './words.js';

/** A generated retail website (the emulator's own record; the wire shape is smaller). */
export interface WebsiteRecord {
  id: string;
  name: string;
  domain: string;
  url: string;
  homeCountry: CountryCode;
  /** A niche retailer's vertical, or 'general' for department stores and marketplaces. */
  vertical: Vertical | 'general';
  /** 0..1; orders results of equal relevance and drives category ranks. */
  popularity: number;
  /** Slugs of every category the website sells in (not only those where it is top 1,000). */
  categories: string[];
  /** Commission rate in percent per country, indexed like COUNTRY_CODES (0 = none). */
  commission: number[];
}

export const WEBSITE_COUNT = 3000;
const GENERAL_SHARE = 0.35;
/** The contract's codes outside the European Union (EU itself is the pan-region). */
const OUTSIDE_EU: ReadonlySet<CountryCode> = new Set(['US', 'GB', 'EU', 'AU', 'CA']);
const EU_MEMBERS: ReadonlySet<CountryCode> = new Set(
  COUNTRY_CODES.filter((code) => !OUTSIDE_EU.has(code)),
);

/**
 * Hand-written retailers that the demo and the docs refer to. They come first so their
 * ids stay the same whatever the generated tail looks like.
 */
const DEMO_RETAILERS: readonly {
  name: string;
  domain: string;
  home: CountryCode;
  vertical: Vertical | 'general';
  /** Fixed popularity (relevance fixtures); demo retailers otherwise get a high random one. */
  popularity?: number;
}[] = [
  { name: 'Fell & Trail', domain: 'fellandtrail.co.uk', home: 'GB', vertical: 'footwear' },
  { name: 'Trailhead Running', domain: 'trailheadrunning.com', home: 'US', vertical: 'footwear' },
  { name: 'Run Republic', domain: 'runrepublic.co.uk', home: 'GB', vertical: 'footwear' },
  { name: 'Summit Outfitters', domain: 'summitoutfitters.com', home: 'US', vertical: 'outdoor' },
  { name: 'Northwind Supply', domain: 'northwindsupply.com', home: 'US', vertical: 'general' },
  { name: 'Bergsteiger Sport', domain: 'bergsteiger-sport.de', home: 'DE', vertical: 'sports' },
  // Relevance fixtures around the word "quarry" (used by no generated name): an exact
  // name that is the least popular, then prefix, substring and typo matches that are
  // more popular, so ordering by relevance and by popularity disagree.
  { name: 'Quarry', domain: 'quarry.com', home: 'US', vertical: 'outdoor', popularity: 0.05 },
  {
    name: 'Quarryman Running',
    domain: 'quarrymanrunning.com',
    home: 'GB',
    vertical: 'footwear',
    popularity: 0.95,
  },
  {
    name: 'Old Quarry Outfitters',
    domain: 'oldquarry.com',
    home: 'US',
    vertical: 'outdoor',
    popularity: 0.9,
  },
  {
    name: 'Stonequarry Supply',
    domain: 'stonequarrysupply.com',
    home: 'US',
    vertical: 'general',
    popularity: 0.97,
  },
  {
    name: 'Quary Goods',
    domain: 'quarygoods.com',
    home: 'US',
    vertical: 'general',
    popularity: 0.99,
  },
];

const round1 = (value: number): number => Math.round(value * 10) / 10;

function pickHome(rng: SeededRandom): { country: CountryCode; tld: string } {
  let roll = rng.next();
  for (const home of RETAILER_HOMES) {
    roll -= home.share;
    if (roll <= 0) return home;
  }
  return RETAILER_HOMES[0];
}

function pickVertical(rng: SeededRandom): Vertical | 'general' {
  if (rng.chance(GENERAL_SHARE)) return 'general';
  // Footwear is doubled: the demo needs many shoe retailers.
  return rng.chance(0.12) ? 'footwear' : rng.pick(VERTICALS);
}

function domainFor(name: string, tld: string): string {
  return `${name
    .toLowerCase()
    .replace(/&/g, 'and')
    .replace(/[^a-z0-9]+/g, '')}.${tld}`;
}

function categoriesFor(rng: SeededRandom, vertical: Vertical | 'general'): string[] {
  const sold = CATEGORY_DEFINITIONS.filter((category) => {
    if (vertical === 'general') return rng.chance(0.85);
    return rng.chance(category.vertical === vertical ? 0.9 : 0.04);
  }).map((category) => category.slug);
  if (sold.length > 0) return sold;
  const own = CATEGORY_DEFINITIONS.find((category) => category.vertical === vertical);
  return [own?.slug ?? 'books'];
}

function commissionFor(
  rng: SeededRandom,
  home: CountryCode,
  vertical: Vertical | 'general',
): number[] {
  // About one in ten retailers runs no affiliate programme at all.
  if (rng.chance(0.1)) return COUNTRY_CODES.map(() => 0);
  const base = 1 + rng.next() * 11;
  const reach = vertical === 'general' ? 0.7 : 0.45;
  const rates = COUNTRY_CODES.map((country) =>
    country === home || (country !== 'EU' && rng.chance(reach))
      ? round1(base * (0.7 + rng.next() * 0.6))
      : 0,
  );
  // The pan-EU rate is the best rate among the EU members the retailer serves.
  const euIndex = COUNTRY_CODES.indexOf('EU');
  rates[euIndex] = Math.max(
    0,
    ...rates.filter((_, i) => EU_MEMBERS.has(COUNTRY_CODES[i] as CountryCode)),
  );
  return rates;
}

function uniqueId(rng: SeededRandom, taken: Set<string>, prefix: string): string {
  let id = `${prefix}${rng.id(8)}`;
  while (taken.has(id)) id = `${prefix}${rng.id(8)}`;
  taken.add(id);
  return id;
}

function generatedName(
  rng: SeededRandom,
  vertical: Vertical | 'general',
  taken: Set<string>,
): string {
  for (;;) {
    const prefix = rng.pick(RETAILER_PREFIXES);
    const noun = rng.pick(RETAILER_NOUNS[vertical]);
    // A third word keeps names unique once the two-word combinations run out.
    const name = rng.chance(0.25)
      ? `${prefix} ${rng.pick(RETAILER_PREFIXES)} ${noun}`
      : `${prefix} ${noun}`;
    if (!taken.has(name.toLowerCase())) return name;
  }
}

/** Generates WEBSITE_COUNT retailers, deterministic for the given PRNG state. */
export function generateWebsites(rng: SeededRandom): WebsiteRecord[] {
  const names = new Set<string>();
  const ids = new Set<string>();
  const websites: WebsiteRecord[] = [];
  const add = (
    name: string,
    domain: string,
    home: CountryCode,
    vertical: Vertical | 'general',
    popularity: number,
  ) => {
    names.add(name.toLowerCase());
    websites.push({
      id: uniqueId(rng, ids, 'web_'),
      name,
      domain,
      url: `https://www.${domain}`,
      homeCountry: home,
      vertical,
      popularity,
      categories: categoriesFor(rng, vertical),
      commission: commissionFor(rng, home, vertical),
    });
  };
  for (const retailer of DEMO_RETAILERS) {
    const popularity = 0.9 + rng.next() * 0.1;
    add(
      retailer.name,
      retailer.domain,
      retailer.home,
      retailer.vertical,
      retailer.popularity ?? popularity,
    );
  }
  const domains = new Set(websites.map((website) => website.domain));
  while (websites.length < WEBSITE_COUNT) {
    const vertical = pickVertical(rng);
    const name = generatedName(rng, vertical, names);
    const home = pickHome(rng);
    const domain = domainFor(name, home.tld);
    if (domains.has(domain)) continue;
    domains.add(domain);
    // Cubing skews popularity: a few big retailers, a long tail of small ones.
    add(name, domain, home.country, vertical, rng.next() ** 3);
  }
  return websites;
}
