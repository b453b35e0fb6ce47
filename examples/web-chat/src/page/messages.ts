import type { CatalogToolTypes } from '@catalogkit/ai-sdk';
import type { UIDataTypes, UIMessage } from 'ai';

/**
 * A chat message of flow 1, with typed tool parts (`tool-search_catalog`, ...): what the
 * model asked and what the tool returned, typed by the adapter's own tool types.
 */
export type ShopMessage = UIMessage<unknown, UIDataTypes, CatalogToolTypes>;
export type ShopPart = ShopMessage['parts'][number];
