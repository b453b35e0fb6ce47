import type { minorUnitsText, productOffers } from '@catalogkit/core/tools';

/** What the operator decides about the storefront, written into its HTML. */
export interface StorefrontViewConfig {
  /** Show each offer's commission on the cards (off by default: shoppers do not see it). */
  showCommission: boolean;
  /** The package version, reported to the host as the app's. */
  version: string;
  /** Most products drawn (core keeps no more of an answer; a host's result may hold more). */
  maxProducts: number;
  /** Most offers drawn per product, likewise. */
  maxOffers: number;
}

/**
 * The storefront's script, run in the host's sandboxed iframe. It is sent as its own source
 * text (`storefrontView.toString()`), so it uses nothing from outside its body: no imports,
 * no helpers of this module. Core's price formatter and buy-link rule come in the same way,
 * as arguments written as their source text, so the cards and the model's text are one
 * definition's output. It speaks the MCP Apps protocol (JSON-RPC over `postMessage` with the
 * parent window only) by hand instead of bundling the ext-apps `App` class, which brings the
 * MCP SDK and zod (hundreds of kB) into a page that needs four messages.
 *
 * Every catalog text goes in with `textContent`, and the page draws only the result's
 * `response` (never the model's tool input). A buy link is what `productOffers` says, handed
 * to the host's `ui/open-link` exactly as the catalog wrote it: when the host can open links,
 * Buy is a `<button>` with no URL in the page, so no middle click, context menu or drag opens
 * it past the host; only a host without `openLinks` gets a plain `<a href>`.
 */
export function storefrontView(
  config: StorefrontViewConfig,
  formatPrice: typeof minorUnitsText,
  offersOf: typeof productOffers,
): void {
  const PROTOCOL_VERSION = '2026-01-26';
  const cards = document.getElementById('cards');
  const status = document.getElementById('status');
  if (!cards || !status) return;
  type Message = Record<string, unknown>;
  const waiting = new Map<number, (message: Message) => void>();
  let nextId = 1;
  let canOpenLinks = false;

  const isRecord = (value: unknown): value is Record<string, unknown> =>
    typeof value === 'object' && value !== null && !Array.isArray(value);
  const text = (value: unknown): string | undefined =>
    typeof value === 'string' && value.trim() !== '' ? value : undefined;
  const send = (message: Message) => window.parent.postMessage({ jsonrpc: '2.0', ...message }, '*');
  const request = (method: string, params: Message) =>
    new Promise<Message>((resolve) => {
      const id = nextId++;
      waiting.set(id, resolve);
      send({ id, method, params });
    });
  const element = (tag: string, className: string, content?: string) => {
    const node = document.createElement(tag);
    node.className = className;
    if (content !== undefined) node.textContent = content;
    return node;
  };

  const formatters = new Map<string, Intl.NumberFormat | null>();
  const price = (value: unknown): string | undefined =>
    isRecord(value) && typeof value.amount === 'number' && typeof value.currency === 'string'
      ? formatPrice({ amount: value.amount, currency: value.currency }, formatters)
      : undefined;

  const commission = (placement: unknown): string | undefined => {
    const rate = isRecord(placement) ? placement.commission : undefined;
    const percentage = isRecord(rate) ? rate.percentage : undefined;
    const value = isRecord(percentage) ? percentage.value : undefined;
    return typeof value === 'number' || typeof value === 'string'
      ? `${value}% commission`
      : undefined;
  };

  const buyButton = (link: string, seller: string | undefined) => {
    const label = seller ? `Buy at ${seller}` : 'Buy';
    // A host without openLinks gets the plain link, for its sandbox to allow or refuse.
    if (!canOpenLinks) {
      const anchor = element('a', 'buy', label);
      anchor.setAttribute('href', link);
      anchor.setAttribute('target', '_blank');
      anchor.setAttribute('rel', 'noopener noreferrer sponsored');
      return anchor;
    }
    const button = element('button', 'buy', label);
    button.addEventListener('click', () => void request('ui/open-link', { url: link }));
    return button;
  };

  const offer = (
    variant: Record<string, unknown>,
    link: string | undefined,
    productTitle: string,
  ) => {
    const row = element('li', 'offer');
    // What the variant's title adds to its product's ("Shoe - Red" under "Shoe" is "Red").
    const title = text(variant.title);
    const option = title?.startsWith(productTitle)
      ? title.slice(productTitle.length).replace(/^[\s\-–—:,/|]+/, '')
      : title;
    if (option) row.append(element('span', 'option', option));
    const amount = price(variant.price);
    if (amount) row.append(element('span', 'price', amount));
    const seller = isRecord(variant.seller) ? text(variant.seller.name) : undefined;
    if (seller) row.append(element('span', 'seller', seller));
    const availability = isRecord(variant.availability) ? variant.availability : undefined;
    if (availability?.available === false) row.append(element('span', 'stock', 'Out of stock'));
    const rate = config.showCommission ? commission(variant.placement) : undefined;
    if (rate) row.append(element('span', 'commission', rate));
    row.append(link ? buyButton(link, seller) : element('span', 'no-link', 'No buy link'));
    return row;
  };

  const card = (product: Record<string, unknown>) => {
    const title = text(product.title) ?? 'Untitled product';
    const article = element('article', 'card');
    article.append(element('h2', 'title', title));
    const range = isRecord(product.price_range) ? product.price_range : undefined;
    const [min, max] = [price(range?.min), price(range?.max)];
    if (min) article.append(element('p', 'range', max && max !== min ? `${min} – ${max}` : min));
    const offers = element('ul', 'offers');
    for (const { offer: record, link } of offersOf(product).slice(0, config.maxOffers)) {
      offers.append(offer(record, link, title));
    }
    article.append(offers);
    return article;
  };

  const render = (result: Message) => {
    cards.replaceChildren();
    const output = isRecord(result.structuredContent) ? result.structuredContent : undefined;
    const response = isRecord(output?.response) ? output.response : undefined;
    const products = Array.isArray(response?.products)
      ? response.products.slice(0, config.maxProducts).filter(isRecord)
      : [];
    if (result.isError === true || !response) {
      status.textContent = 'The catalog search did not return products.';
      return;
    }
    // The count only: `request.query` is the model's tool input, not the catalog's answer.
    status.textContent = `${products.length} product${products.length === 1 ? '' : 's'}`;
    for (const product of products) cards.append(card(product));
  };

  const reportSize = () =>
    send({
      method: 'ui/notifications/size-changed',
      params: { height: Math.ceil(document.documentElement.getBoundingClientRect().height) },
    });

  window.addEventListener('message', (event) => {
    // Only the host that embeds this page speaks to it.
    if (event.source !== window.parent || !isRecord(event.data)) return;
    const message = event.data;
    if (message.jsonrpc !== '2.0') return;
    const { id, method } = message;
    if (typeof method !== 'string') {
      const resolve = typeof id === 'number' ? waiting.get(id) : undefined;
      if (resolve && typeof id === 'number') {
        waiting.delete(id);
        resolve(message);
      }
      return;
    }
    if (method === 'ui/notifications/tool-result' && isRecord(message.params)) {
      render(message.params);
    } else if (method === 'ui/notifications/tool-cancelled') {
      status.textContent = 'The catalog search was cancelled.';
    }
    if (id === undefined) return;
    // Requests: teardown and ping need no work; anything else is not offered.
    if (method === 'ui/resource-teardown' || method === 'ping') send({ id, result: {} });
    else send({ id, error: { code: -32601, message: `Method not found: ${method}` } });
  });

  void request('ui/initialize', {
    appInfo: { name: 'catalogkit-storefront', version: config.version },
    appCapabilities: {},
    protocolVersion: PROTOCOL_VERSION,
  }).then((answer) => {
    const result = isRecord(answer.result) ? answer.result : {};
    const capabilities = isRecord(result.hostCapabilities) ? result.hostCapabilities : {};
    canOpenLinks = isRecord(capabilities.openLinks);
    send({ method: 'ui/notifications/initialized', params: {} });
    // Sizes only once initialized: the host sizes the frame to the cards from then on.
    new ResizeObserver(reportSize).observe(document.documentElement);
  });
}
