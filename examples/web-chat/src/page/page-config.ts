import { createContext, useContext } from 'react';

/** A collection the shopper has, as the app knows it: the approval card names it. */
export interface KnownCollection {
  id: string;
  name: string;
}

/**
 * What the server tells the page (a `<meta>` tag in the served HTML, read once at start):
 * publisher switches and what the app knows about the shopper. Never secrets.
 */
export interface PageConfig {
  /** Show each offer's commission on the cards (publisher view); off for shoppers. */
  showCommission: boolean;
  /** The shopper's collections, so changes name "Summer" rather than `col_summer`. */
  collections: KnownCollection[];
}

/** Without a config from the server: the shopper's view, nothing known. */
export const DEFAULT_PAGE_CONFIG: PageConfig = { showCommission: false, collections: [] };

function isKnownCollection(value: unknown): value is KnownCollection {
  if (typeof value !== 'object' || value === null) return false;
  const { id, name } = value as Record<string, unknown>;
  return typeof id === 'string' && typeof name === 'string';
}

/** The config in a JSON answer; anything malformed falls back to the shopper's view. */
export function parsePageConfig(value: unknown): PageConfig {
  if (typeof value !== 'object' || value === null) return DEFAULT_PAGE_CONFIG;
  const { showCommission, collections } = value as Record<string, unknown>;
  return {
    showCommission: showCommission === true,
    collections: Array.isArray(collections) ? collections.filter(isKnownCollection) : [],
  };
}

/** The name of the `<meta>` tag the server writes the config into (`content` is its JSON). */
export const PAGE_CONFIG_META = 'catalogkit-page-config';

/** The config the server wrote into the page; the shopper's view when there is none. */
export function readPageConfig(doc: Document = document): PageConfig {
  const content = doc.querySelector(`meta[name="${PAGE_CONFIG_META}"]`)?.getAttribute('content');
  if (!content) return DEFAULT_PAGE_CONFIG;
  try {
    return parsePageConfig(JSON.parse(content));
  } catch {
    return DEFAULT_PAGE_CONFIG;
  }
}

/** Carries the page config to the cards and approval cards. */
export const PageConfigContext = createContext<PageConfig>(DEFAULT_PAGE_CONFIG);

/** The page config of the nearest provider. */
export function usePageConfig(): PageConfig {
  return useContext(PageConfigContext);
}
