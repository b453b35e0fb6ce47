import { ConfigurationError } from '@catalogkit/core';
import { CATALOG_LIMIT_MAX, CATALOG_VARIANTS_MAX } from '@catalogkit/core/schemas';
import { minorUnitsText, productOffers } from '@catalogkit/core/tools';
import { storefrontView } from './storefront-view.js';

/** The storefront's resource: the product cards hosts with MCP Apps show for search_catalog. */
export const STOREFRONT_URI = 'ui://catalogkit/storefront.html';
/** The MCP Apps profile of HTML (`RESOURCE_MIME_TYPE` of `@modelcontextprotocol/ext-apps`). */
export const STOREFRONT_MIME_TYPE = 'text/html;profile=mcp-app';
/** The flat key older hosts read the resource from (ext-apps' `RESOURCE_URI_META_KEY`). */
const LEGACY_RESOURCE_URI_KEY = 'ui/resourceUri';

/** What the operator decides about the storefront (`storefront` option). */
export interface StorefrontOptions {
  /**
   * Show each offer's commission on the product cards. Default `false`: the cards are the
   * shopper's, and the commission is the operator's business. The model's text and the
   * `structuredContent` are the same either way.
   */
  showCommission?: boolean;
}

/** The storefront as served: its HTML, its listing entry and the `_meta` of its tool. */
export interface Storefront {
  html: string;
  resource: {
    uri: string;
    name: string;
    title: string;
    description: string;
    mimeType: string;
  };
  /** `_meta` of the search_catalog tool: both keys, as ext-apps' `registerAppTool` writes them. */
  toolMeta: Record<string, unknown>;
  /** `_meta` of the resource's contents: no network (no `csp` domains), a host border. */
  contentMeta: Record<string, unknown>;
}

const STYLE = `:root{color-scheme:light dark;font:14px/1.4 system-ui,sans-serif}
body{margin:0;padding:8px}#status{margin:0 0 8px;color:GrayText}
#cards{display:grid;gap:8px;grid-template-columns:repeat(auto-fill,minmax(220px,1fr))}
.card{border:1px solid color-mix(in srgb,CanvasText 20%,transparent);border-radius:8px;padding:10px}
.title{font-size:15px;margin:0 0 4px}.range{margin:0 0 6px;color:GrayText}
.offers{list-style:none;margin:0;padding:0}.offer{display:flex;flex-wrap:wrap;gap:4px 8px;align-items:center;padding:4px 0}
.price{font-weight:600}.commission,.stock,.no-link{color:GrayText}
.buy{margin-left:auto;padding:3px 10px;border:0;border-radius:6px;background:LinkText;color:Canvas;font:inherit;text-decoration:none;cursor:pointer}`;

function showCommissionOf(options: StorefrontOptions | undefined): boolean {
  if (options === undefined) return false;
  if (typeof options !== 'object' || options === null) {
    throw new ConfigurationError('Invalid MCP server options: storefront must be an object');
  }
  const { showCommission = false } = options;
  if (typeof showCommission !== 'boolean') {
    throw new ConfigurationError(
      `Invalid MCP server options: storefront.showCommission must be a boolean, got ${typeof showCommission}`,
    );
  }
  return showCommission;
}

/**
 * The storefront's HTML: one self-contained page (style, script, no external load, no
 * inline event handler), the operator's choice written into it as JSON.
 */
function storefrontHtml(showCommission: boolean, version: string): string {
  // `<` escaped: nothing in the JSON can close the script element.
  const config = JSON.stringify({
    showCommission,
    version,
    maxProducts: CATALOG_LIMIT_MAX,
    maxOffers: CATALOG_VARIANTS_MAX,
  }).replaceAll('<', '\\u003c');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>Catalog results</title><style>${STYLE}</style></head><body><p id="status" role="status">Waiting for the catalog search…</p><main id="cards"></main><script>(${storefrontView.toString()})(${config},${minorUnitsText.toString()},${productOffers.toString()});</script></body></html>`;
}

/**
 * The storefront for these options; throws a `ConfigurationError` naming a bad option.
 * Built once per process (the HTTP handler serves every request from it).
 */
export function storefrontOf(options: StorefrontOptions | undefined, version: string): Storefront {
  const html = storefrontHtml(showCommissionOf(options), version);
  return {
    html,
    resource: {
      uri: STOREFRONT_URI,
      name: 'storefront',
      title: 'Product cards',
      description: 'The products of a catalog search as cards with their buy links.',
      mimeType: STOREFRONT_MIME_TYPE,
    },
    toolMeta: { ui: { resourceUri: STOREFRONT_URI }, [LEGACY_RESOURCE_URI_KEY]: STOREFRONT_URI },
    contentMeta: { ui: { prefersBorder: true } },
  };
}

/** The contents of `resources/read` for `uri`, or undefined when it is not the storefront's. */
export function readStorefront(storefront: Storefront | undefined, uri: string) {
  if (!storefront || uri !== storefront.resource.uri) return undefined;
  return {
    contents: [
      {
        uri: storefront.resource.uri,
        mimeType: storefront.resource.mimeType,
        text: storefront.html,
        _meta: storefront.contentMeta,
      },
    ],
  };
}
