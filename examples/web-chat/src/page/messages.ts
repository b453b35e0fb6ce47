import type {
  SearchCatalogInput,
  SearchCatalogOutput,
  SearchWebsitesInput,
  SearchWebsitesOutput,
  UpdateCollectionInput,
  UpdateCollectionOutput,
} from '@catalogkit/core';
import type { UIDataTypes, UIMessage } from 'ai';

/** The catalog tools as the page sees them: what the model asked and what the tool returned. */
export type ShopTools = {
  search_catalog: { input: SearchCatalogInput; output: SearchCatalogOutput };
  search_websites: { input: SearchWebsitesInput; output: SearchWebsitesOutput };
  update_collection: { input: UpdateCollectionInput; output: UpdateCollectionOutput };
};

/** A chat message of flow 1, with typed tool parts (`tool-search_catalog`, ...). */
export type ShopMessage = UIMessage<unknown, UIDataTypes, ShopTools>;
export type ShopPart = ShopMessage['parts'][number];
